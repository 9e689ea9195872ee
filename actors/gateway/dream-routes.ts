// The dream over HTTP (bearer token checked by the caller): GET /v1/dream (running, watermark, pending days, next
// eligible time, last run, failures per batch), POST /v1/consolidate {force?} (a run now: bypasses the gate, never
// the lock — a second one answers `busy` with the running id), POST /v1/dream/undo {run} (memvault undo --run).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { DreamStatus, DreamUnavailable, TickResult, UndoRunResult } from '../../messages/dream.js';
import { describeIssues } from './api-schema.js';
import { readJsonBody, sendJson } from './http-body.js';

export interface DreamBackend {
  status(): Promise<DreamStatus | DreamUnavailable>;
  consolidate(force: boolean): Promise<TickResult | DreamUnavailable>;
  undoRun(run: string, by: string): Promise<UndoRunResult>;
}

const consolidateBody = z.object({ force: z.boolean().optional() }).strict();
const undoBody = z
  .object({ run: z.string().regex(/^dream-[0-9TZ]+-[0-9a-f]{6}$/, 'run must be a dream run id like dream-20261125T220000Z-a1b2c3') })
  .strict();

function fail(res: ServerResponse, status: number, reason: string, message: string, headers: Record<string, string> = {}): number {
  sendJson(res, status, { error: { reason, message } }, headers);
  return status;
}

const UNDO_STATUS: Record<string, number> = { nothing_to_undo: 404, not_last_run: 409, conflict: 409, git_failed: 503 };

/** Serves `/v1/dream`, `/v1/dream/undo` and `/v1/consolidate`; null for any other path. */
export function routeDream(
  dream: DreamBackend | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  agent: string,
): Promise<number> | null {
  if (pathname !== '/v1/dream' && pathname !== '/v1/consolidate' && pathname !== '/v1/dream/undo') return null;
  return serve();

  async function serve(): Promise<number> {
    if (!dream) return fail(res, 503, 'unavailable', 'the dream runs in the scheduler: with `memvault start` and writes enabled');
    try {
      if (pathname === '/v1/dream') {
        if (req.method !== 'GET') return fail(res, 405, 'bad_request', 'GET /v1/dream shows the dream’s state', { allow: 'GET' });
        const s = await dream.status();
        if ('ok' in s) return fail(res, 503, s.reason, s.message);
        sendJson(res, 200, s);
        return 200;
      }
      if (req.method !== 'POST') return fail(res, 405, 'bad_request', `use POST ${pathname}`, { allow: 'POST' });
      const read = await readJsonBody(req, 16 * 1024);
      if (!read.ok) return fail(res, read.error.reason === 'too_large' ? 413 : 400, read.error.reason, read.error.message);
      if (pathname === '/v1/consolidate') {
        const body = consolidateBody.safeParse(read.result.body ?? {});
        if (!body.success) return fail(res, 400, 'bad_request', describeIssues(body.error));
        const r = await dream.consolidate(body.data.force ?? false);
        if ('ok' in r) return fail(res, 503, r.reason, r.message);
        if (r.outcome === 'busy') {
          // one run at a time: 409 with the running one's id tells a script to wait for it
          sendJson(res, 409, { error: { reason: 'busy', message: `dream run ${r.run} is under way: one run at a time` }, run: r.run });
          return 409;
        }
        sendJson(res, 200, r);
        return 200;
      }
      const body = undoBody.safeParse(read.result.body ?? {});
      if (!body.success) return fail(res, 400, 'bad_request', describeIssues(body.error));
      const u = await dream.undoRun(body.data.run, agent);
      if (!u.ok) return fail(res, UNDO_STATUS[u.reason] ?? 500, u.reason, u.message);
      sendJson(res, 200, u);
      return 200;
    } catch (err) {
      return fail(res, 503, 'unavailable', `the scheduler or git writer did not answer: ${(err as Error).message}`, { 'retry-after': '5' });
    }
  }
}
