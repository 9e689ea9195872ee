// The HTTP JSON interface: /healthz, /metrics, /v1/status, /v1/search — bearer-token auth on every /v1 route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Authenticator } from './agents/principal.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { describeIssues, searchBody } from './api-schema.js';
import { readJsonBody, sendJson } from './http-body.js';
import type { IndexView } from './index-view.js';
import type { LlmStatus } from './llm-status.js';
import type { GitStatus } from '../git-writer/index-lock.js';
import type { SupervisionStatus } from './supervision-status.js';
import { type JobsBackend, routeJobs } from './jobs-routes.js';
import { type DreamBackend, routeDream } from './dream-routes.js';
import type { GatewayMetrics } from './metrics.js';
import type { Retrieve } from './retrieval.js';
import type { ToolGateway } from './tools/gateway.js';
import { routeTools } from './tools/http-json.js';
import { routeEpisodes, type EpisodeRouteDeps } from './episodes-http.js';
import { httpStatus } from './tools/types.js';
import { routePage, type PageDeps } from './page/routes.js';
import type { DavDeps } from './webdav/dav.js';
import { DAV_PREFIX } from './webdav/dav-paths.js';
import { admit, spendRate, type Gate, type Retired } from './agents/http-gate.js';
import type { Principal } from './agents/principal.js';
import { routeAudit } from './agents/route-audit.js';
import type { IndexDamage } from './index-damage.js';

export interface HttpDeps {
  token: string;
  /** Agents' credentials, scopes, rate limits and the audit trail (agents/); absent: the owner token alone. */
  gate?: Gate;
  view: IndexView;
  search: Retrieve;
  metricsText: () => Promise<{ text: string; contentType: string }>;
  reindex: () => Promise<{ ok: boolean; documents: number; ms: number; error: string | null }>;
  /** An error that says the index file is damaged: its rebuild started, the failure to answer (index-damage.ts). */
  damaged?: IndexDamage['check'];
  log: EventLogger;
  metrics: GatewayMetrics;
  version: string;
  maxBodyBytes?: number;
  /** The agent tools: MCP at /mcp, HTTP JSON at /v1/tools[/<name>]. */
  tools?: ToolGateway;
  /** Whether the LLM-driven jobs can run (llm-status.ts): `llm` in /v1/status. */
  llm?: () => LlmStatus;
  /** What stands in the way of the vault's git (a stale `.git/index.lock`: git-writer/index-lock.ts): `git` in /v1/status. */
  git?: () => GitStatus;
  /** The running supervision tree (supervision-status.ts): `supervision` in /v1/status. */
  supervision?: () => Promise<SupervisionStatus>;
  /** The scheduler's jobs at /v1/jobs (jobs-routes.ts); absent when it does not run. */
  jobs?: JobsBackend;
  /** The dream at /v1/dream and /v1/consolidate (dream-routes.ts); absent when the scheduler does not run. */
  dream?: DreamBackend;
  /** POST /v1/reconcile: the watcher compares the whole vault with the index again. */
  reconcile?: () => void;
  /** POST /v1/episodes, session close, prune (absent where no memory actor runs). */
  episodes?: Omit<EpisodeRouteDeps, 'view' | 'metrics'>;
  /** The status page at `/` and its login at `/login` (page/routes.ts). */
  page?: PageDeps;
  /** The vault over WebDAV at /dav/ (webdav/dav.ts), when `webdav.enabled`. */
  dav?: DavDeps;
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const send = sendJson;

async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  const read = await readJsonBody(req, max);
  if (!read.ok) throw new HttpFailure(httpStatus(read.error.reason), read.error.reason, read.error.message);
  return read.result.body ?? {};
}

/** Without agents configured: the owner token alone, compared in constant time. */
function ownerGate(token: string): Gate {
  const a = new Authenticator({ dataDir: null, ownerToken: token, ownerSensitive: false, defaultRate: '1/s' });
  return { resolve: (h, agent) => a.resolve(h, agent), limiter: null, audit: null };
}

export function createHttpServer(d: HttpDeps): Server {
  const max = d.maxBodyBytes ?? 1_000_000;
  const gate = d.gate ?? ownerGate(d.token);
  /** Who each admitted request is: the audit line written when it is answered names them. */
  const callers = new WeakMap<IncomingMessage, Principal>();
  const refusedAtDoor = new WeakSet<IncomingMessage>();
  /** Refused tokens that were an agent's (revoked, rotated out): the audit line names the agent. */
  const retiredCallers = new WeakMap<IncomingMessage, Retired>();
  async function route(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname;
    if (p === '/healthz' && req.method === 'GET') {
      send(res, 200, { ok: true, version: d.version });
      return 200;
    }
    if (p === '/metrics' && req.method === 'GET') {
      const m = await d.metricsText();
      res.writeHead(200, { 'content-type': m.contentType });
      res.end(m.text);
      return 200;
    }
    // loaded on the first WebDAV request (the gateway loaded the rest of WebDAV at start, only when it is enabled)
    if (d.dav && (p === DAV_PREFIX || p.startsWith(`${DAV_PREFIX}/`)))
      return (await import('./webdav/dav.js')).handleDav(d.dav, req, res, p);
    if (p.startsWith('/v1/') || p === '/mcp') {
      const a = await admit(gate, req, p);
      if (!a.ok) {
        refusedAtDoor.add(req);
        if (a.status === 401) {
          if (a.retired) retiredCallers.set(req, a.retired);
          d.metrics.authFailures.inc();
          d.log.event('auth_failed', { path: p, remote: req.socket.remoteAddress });
        } else if (a.principal) callers.set(req, a.principal);
        for (const [k, v] of Object.entries(a.headers)) res.setHeader(k, v);
        throw new HttpFailure(a.status, a.reason, a.message);
      }
      const principal = a.principal;
      callers.set(req, principal);
      // POST /v1/context is the memory_context tool (context-tool.ts) at a route of its own: checked as that tool
      // an MCP message that calls a tool spends the agent's rate there (http-gate.ts): refused like at the door
      const spendCall = (): boolean => {
        const r = spendRate(gate, principal);
        if (!r) return true;
        refusedAtDoor.add(req);
        for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
        send(res, r.status, { error: { reason: r.reason, message: r.message } });
        return false;
      };
      const tool = d.tools
        ? routeTools(
            d.tools,
            req,
            res,
            p === '/v1/context' ? '/v1/tools/memory_context' : p,
            principal,
            p === '/mcp' ? spendCall : undefined,
          )
        : null;
      if (tool) return tool;
      const job = routeJobs(d.jobs, req, res, p);
      if (job) return job;
      const dream = routeDream(d.dream, req, res, p, principal.name);
      if (dream) return dream;
      const episodes = d.episodes ? routeEpisodes({ ...d.episodes, view: d.view, metrics: d.metrics }, req, res, p, principal) : null;
      if (episodes) return episodes;
      if (p === '/v1/status' && req.method === 'GET') {
        const supervision = d.supervision ? await d.supervision() : undefined;
        send(res, 200, {
          index: d.view.state(),
          version: d.version,
          ...(d.llm ? { llm: d.llm() } : {}),
          ...(d.git ? { git: d.git() } : {}),
          ...(supervision ? { supervision } : {}),
        });
        return 200;
      }
      if (p === '/v1/reconcile' && req.method === 'POST' && d.reconcile) {
        d.reconcile();
        send(res, 202, { ok: true, reconciling: true });
        return 202;
      }
      if (p === '/v1/reindex' && req.method === 'POST') {
        const r = await d.reindex();
        if (!r.ok) throw new HttpFailure(500, 'reindex_failed', r.error ?? 'reindex failed');
        send(res, 200, r);
        return 200;
      }
      if (p === '/v1/search' && req.method === 'POST') {
        const parsed = searchBody.safeParse(await readJson(req, max));
        if (!parsed.success) throw new HttpFailure(400, 'bad_request', describeIssues(parsed.error));
        if (parsed.data.filters?.include_sensitive && principal.kind === 'agent' && !principal.sensitive)
          throw new HttpFailure(403, 'sensitive', 'filters.include_sensitive needs a credential granted --sensitive');
        send(res, 200, await d.search(parsed.data, { agent: principal.name, transport: 'http' }));
        return 200;
      }
    }
    const page = d.page ? routePage(d.page, req, res, url) : null;
    if (page) return page;
    throw new HttpFailure(404, 'not_found', `no route ${req.method} ${p}`);
  }
  return createServer((req, res) => {
    const started = performance.now();
    route(req, res).then(
      (status) => {
        d.metrics.requests.inc({ transport: 'http', route: routeLabel(req.url), status: String(status) });
        routeAudit(gate.audit, req.url, callers.get(req), status, null, performance.now() - started, refusedAtDoor.has(req));
      },
      (err: unknown) => {
        const damaged = err instanceof HttpFailure ? null : (d.damaged?.(err) ?? null);
        const f =
          err instanceof HttpFailure
            ? err
            : damaged
              ? new HttpFailure(503, damaged.reason, damaged.message)
              : new HttpFailure(500, 'internal', `internal error: ${(err as Error)?.message ?? String(err)}`);
        if (f.status === 500) d.log.error({ event: 'gateway_request', err: String((err as Error)?.stack ?? err) }, 'request failed');
        d.metrics.requests.inc({ transport: 'http', route: routeLabel(req.url), status: String(f.status) });
        if (!res.headersSent) send(res, f.status, { error: { reason: f.reason, message: f.message } });
        else res.end();
        routeAudit(
          gate.audit,
          req.url,
          callers.get(req),
          f.status,
          f.reason,
          performance.now() - started,
          refusedAtDoor.has(req),
          retiredCallers.get(req) ?? null,
        );
      },
    );
  });
}

function routeLabel(url: string | undefined): string {
  const p = (url ?? '/').split('?')[0] ?? '/';
  if (p.startsWith('/v1/tools')) return '/v1/tools';
  if (p.startsWith('/v1/jobs')) return '/v1/jobs';
  if (p.startsWith('/v1/dream')) return '/v1/dream';
  if (p === '/v1/consolidate') return p;
  if (p.startsWith('/v1/episodes')) return '/v1/episodes';
  if (p === '/dav' || p.startsWith('/dav/')) return '/dav';
  if (p === '/v1/context') return '/v1/context';
  return ['/', '/login', '/healthz', '/metrics', '/v1/status', '/v1/search', '/v1/reindex', '/v1/reconcile', '/v1/prune', '/mcp'].includes(
    p,
  )
    ? p
    : 'other';
}
