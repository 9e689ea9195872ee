// The door every /v1 and /mcp request passes: the token resolved to a principal, the route's scope checked, the
// agent's rate spent — all before any work. MCP and /v1/tools/<name> calls are checked again per tool (guard.ts).
import type { IncomingMessage } from 'node:http';
import type { AuditEvent } from './audit-entry.js';
import { ownerMayNameItself, type Principal } from './store.js';
import { authorize, type RouteName } from './scopes.js';
import type { RateLimiter } from './rate-limit.js';

export interface Gate {
  resolve(authorization: string | undefined, agentHeader: string | string[] | undefined): Promise<Principal | null>;
  /** Whose revoked or rotated-out credential a refused token is (the audit trail names it); absent: never known. */
  retired?(authorization: string | undefined): Promise<Retired | null>;
  limiter: RateLimiter | null;
  audit: ((e: AuditEvent) => void) | null;
}

/** A refused token that was an agent's: its name, and whether it was revoked or rotated out. */
export interface Retired {
  name: string;
  why: 'revoked' | 'rotated';
}

export type Admission =
  | { ok: true; principal: Principal }
  | {
      ok: false;
      status: 401 | 403 | 429;
      reason: 'unauthorized' | 'forbidden' | 'rate_limited';
      message: string;
      headers: Record<string, string>;
      /** Known for 403 and 429 (the audit trail names it). */
      principal: Principal | null;
      /** For a 401: the agent whose revoked or rotated-out token it is, if it is one. */
      retired?: Retired | null;
    };

/** The scope a path needs; `tool` for a single tool call (checked per tool), null for no such route. */
export function routeOf(p: string): RouteName | 'tool' | null {
  if (p === '/mcp') return 'mcp';
  if (p === '/v1/tools') return 'tools_list';
  if (p.startsWith('/v1/tools/')) return 'tool';
  if (p === '/v1/jobs' || p.startsWith('/v1/jobs/')) return 'jobs';
  if (p === '/v1/episodes') return 'episodes_append';
  if (p.startsWith('/v1/episodes/')) return 'episodes_close';
  const plain: Record<string, RouteName> = {
    '/v1/status': 'status',
    '/v1/search': 'search',
    '/v1/prune': 'prune',
    '/v1/reindex': 'reindex',
    '/v1/reconcile': 'reconcile',
    '/v1/dream': 'dream_status',
    '/v1/consolidate': 'consolidate',
    '/v1/dream/undo': 'dream_undo',
  };
  return plain[p] ?? null;
}

const NO_TOKEN_MESSAGE =
  'send `Authorization: Bearer <token>`: the owner token in <data dir>/token, or an agent token from `memvault agents add`';
const RETIRED_MESSAGE: Record<Retired['why'], string> = {
  revoked: 'this token was revoked (`memvault agents revoke`); ask the vault owner for a new one (`memvault agents add`)',
  rotated: "this token was rotated out (`memvault agents rotate`); use the agent's new token",
};

export async function admit(g: Gate, req: IncomingMessage, pathname: string): Promise<Admission> {
  const principal = await g.resolve(req.headers.authorization, req.headers['x-memvault-agent']);
  if (!principal) {
    // told apart only for the very token taken back (checked against its stored hash): says nothing of other tokens
    const retired = (await g.retired?.(req.headers.authorization)) ?? null;
    return {
      ok: false,
      status: 401,
      reason: 'unauthorized',
      message: retired ? RETIRED_MESSAGE[retired.why] : NO_TOKEN_MESSAGE,
      headers: { 'www-authenticate': 'Bearer' },
      principal: null,
      retired,
    };
  }
  if (principal.kind === 'owner' && !ownerMayNameItself(principal.name))
    return {
      ok: false,
      status: 403,
      reason: 'forbidden',
      message: `X-Memvault-Agent "${principal.name}" is reserved: memvault records its own jobs' work under it (the dream, backfill, the status page, memvault-…); send another name`,
      headers: {},
      principal,
    };
  const route = routeOf(pathname);
  if (route !== null && route !== 'tool') {
    const d = authorize(principal, { kind: 'route', route });
    if (!d.ok) return { ok: false, status: 403, reason: 'forbidden', message: d.message, headers: {}, principal };
  }
  // /mcp spends the rate per tool call (mcp-http.ts), not per HTTP request: an MCP client's handshake is three
  // requests (initialize, its notification, a GET), and an agent of `--rate 3/s` got a 429 on its first call
  const refused = route === 'mcp' ? null : spendRate(g, principal);
  return refused ?? { ok: true, principal };
}

/** Spends one call of `principal`'s rate: null when there was one, else the 429 to answer. */
export function spendRate(g: Gate, principal: Principal): Extract<Admission, { ok: false }> | null {
  if (!g.limiter || principal.rate === null) return null;
  const t = g.limiter.take(principal.name, principal.rate);
  if (t.ok) return null;
  return {
    ok: false,
    status: 429,
    reason: 'rate_limited',
    message: `${principal.name} is over its rate of ${principal.rate}; retry in ${t.retryAfterS} s`,
    headers: { 'retry-after': String(t.retryAfterS) },
    principal,
  };
}
