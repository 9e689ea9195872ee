// The episode routes: POST /v1/episodes (journaled and fsync'd by the memory actor before the answer), closing a chat
// session, and a retention sweep on demand. The caller has checked the bearer token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail } from '../../messages/common.js';
import type { AppendResult, CloseResult, ForgetEpisodeResult, PruneResult } from '../../messages/to-memory.js';
import { episodeId, type Episode } from '../../messages/episodes.js';
import { ActorRequestError } from '../../supervisors/runtime/errors.js';
import { checkEpisodes, sessionIdSchema, type Checked } from './episode-schema.js';
import { readJsonBody, sendJson } from './http-body.js';
import type { IndexView } from './index-view.js';
import type { GatewayMetrics } from './metrics.js';
import { httpStatus, type ToolFailReason } from './tools/types.js';
import type { Principal } from './agents/store.js';

export interface EpisodeBackend {
  /** `guard`: refuse items that would replace another agent's episode (an agent below admin), checked by the memory actor. */
  append(episodes: Array<{ ep: Episode; at: number }>, agent: string, guard: boolean): Promise<AppendResult>;
  close(session: string, agent: string): Promise<CloseResult>;
  prune(): Promise<PruneResult>;
  /** `guard`: only what `agent` alone recorded (an agent below admin), checked by the memory actor. */
  forget(id: string, agent: string, guard: boolean): Promise<ForgetEpisodeResult>;
}

/** The memory actor reached by requests through main; no answer (a restart, a timeout) is `unavailable`. */
export function requestBackend(ask: <T>(msg: object, timeoutMs: number) => Promise<T>): EpisodeBackend {
  const asking = async <T>(msg: object, ms: number): Promise<T> => {
    try {
      return await ask<T>(msg, ms);
    } catch (err) {
      if (err instanceof ActorRequestError)
        return fail('unavailable', `the memory actor did not answer (${err.reason}); nothing may have been journaled — retry`) as T;
      throw err;
    }
  };
  return {
    append: (episodes, agent, guard) => asking({ type: 'memory.append', episodes, agent, guard }, 30_000),
    close: (session, agent) => asking({ type: 'memory.close_session', session, agent }, 30_000),
    prune: () => asking({ type: 'memory.prune' }, 300_000),
    forget: (id, agent, guard) => asking({ type: 'memory.forget_episode', id, agent, guard }, 30_000),
  };
}

export interface EpisodeRouteDeps {
  backend: EpisodeBackend;
  view: IndexView;
  metrics: GatewayMetrics;
  maxBodyBytes: number;
  maxTextBytes: number;
}

function refuse(res: ServerResponse, reason: ToolFailReason, message: string, extra: object = {}): number {
  const status = httpStatus(reason);
  sendJson(res, status, { error: { reason, message }, ...extra }, status === 503 ? { 'retry-after': '5' } : {});
  return status;
}

const CLOSE = /^\/v1\/episodes\/sessions\/([^/]+)\/close$/;

/** Serves the episode routes; null when `pathname` is none of them. */
export function routeEpisodes(
  d: EpisodeRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  principal: Principal,
): Promise<number> | null {
  // the credential is the identity (for the owner token: its X-Memvault-Agent header)
  const agent = principal.name;
  if (pathname === '/v1/episodes' && req.method === 'POST') return append(d, req, res, principal);
  const close = CLOSE.exec(pathname);
  if (close && req.method === 'POST') {
    return (async () => {
      let session: string;
      try {
        session = decodeURIComponent(close[1]!);
      } catch {
        return refuse(res, 'bad_request', 'the session id in the path is not valid URL encoding');
      }
      // an id no chat turn can have (a ':', spaces around it) names no session: the caller's mistake, not "not closed"
      const valid = sessionIdSchema.safeParse(session);
      if (!valid.success) return refuse(res, 'bad_request', valid.error.issues[0]?.message ?? 'not a session id');
      const r = await d.backend.close(session, agent);
      if (!r.ok) return refuse(res, r.reason, r.message);
      sendJson(res, 200, { session_id: session, closed: r.closed });
      return 200;
    })();
  }
  if (pathname === '/v1/prune' && req.method === 'POST') {
    return (async () => {
      const r = await d.backend.prune();
      if (!r.ok) return refuse(res, r.reason, r.message);
      const { ok: _ok, ...body } = r;
      sendJson(res, 200, body);
      return 200;
    })();
  }
  return null;
}

async function append(d: EpisodeRouteDeps, req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<number> {
  const agent = principal.name;
  const read = await readJsonBody(req, d.maxBodyBytes);
  if (!read.ok) return refuse(res, read.error.reason, read.error.message);
  const checked = checkEpisodes(read.result.body, { maxTextBytes: d.maxTextBytes, now: Date.now() });
  if (!checked.ok) return refuse(res, checked.error.reason, checked.error.message);
  const { accepted } = checked.result;
  const raw = (read.result.body as { episodes: unknown[] }).episodes;
  const count = (rejected: Checked['rejected']) => {
    for (const r of rejected) {
      const t = (raw[r.i] as { type?: unknown } | null)?.type;
      d.metrics.episodesRejected.inc({
        source_type: typeof t === 'string' && ['chat', 'task', 'correction'].includes(t) ? t : 'unknown',
        reason: r.reason,
      });
    }
  };
  if (accepted.length === 0) {
    const rejected = checked.result.rejected;
    count(rejected);
    return refuse(res, rejected[0]!.reason, `no episode was accepted: ${rejected[0]!.message}`, { accepted: 0, rejected });
  }
  // no agent below admin replaces or deletes another agent's task or chat message (the same id), nor, by becoming its
  // recorder, may forget it: the memory actor knows who recorded each id, whether or not the index holds it yet
  const guard = principal.kind === 'agent' && principal.scope !== 'admin';
  const r = await d.backend.append(
    accepted.map(({ ep, at }) => ({ ep, at })),
    agent,
    guard,
  );
  if (!r.ok) return refuse(res, r.reason, r.message, { accepted: 0 });
  const owned = r.refused.map((k) => {
    const a = accepted[k]!;
    return {
      i: a.i,
      reason: 'forbidden' as const,
      message: `episodes[${a.i}]: ${episodeId(a.ep)} was recorded by another agent; only an admin credential may replace or delete it`,
    };
  });
  const rejected = [...checked.result.rejected, ...owned].sort((x, y) => x.i - y.i);
  count(rejected);
  if (r.accepted === 0)
    return refuse(res, rejected[0]!.reason, `no episode was accepted: ${rejected[0]!.message}`, { accepted: 0, rejected });
  sendJson(res, 200, { accepted: r.accepted, episode_ids: r.ids, ...(rejected.length ? { rejected } : {}), index: d.view.state() });
  return 200;
}
