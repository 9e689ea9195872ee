// The audit line for an HTTP request that is not a single tool call (tool calls are audited by the gateway with their
// arguments): the route, who called (a refused token: the agent whose revoked or rotated-out token it is, else
// `anonymous`), and its status as an outcome (for such a token: `revoked` or `rotated`).
import type { AuditEvent } from './audit-entry.js';
import { routeOf, type Retired } from './http-gate.js';
import type { Principal } from './store.js';

const REASONS: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 429: 'rate_limited' };

export function routeAudit(
  audit: ((e: AuditEvent) => void) | null,
  url: string | undefined,
  p: Principal | undefined,
  status: number,
  reason: string | null,
  ms: number,
  atDoor: boolean,
  retired: Retired | null = null,
): void {
  if (!audit) return;
  const route = (url ?? '/').split('?')[0] ?? '/';
  if (!route.startsWith('/v1/') && route !== '/mcp') return;
  // a tool call answered (any status but a refusal at the door) is in the trail already, with its arguments
  if (!atDoor && (route === '/mcp' || route.startsWith('/v1/tools/'))) return;
  audit({
    agent: p?.name ?? retired?.name ?? 'anonymous',
    kind: p?.kind ?? (retired ? 'agent' : 'anonymous'),
    // a bounded set of names (metrics count by it); the path itself goes in `path`
    tool: `route:${routeOf(route) ?? 'other'}`,
    transport: 'http',
    path: route.slice(0, 200),
    outcome: status < 400 ? 'ok' : status === 401 && retired ? retired.why : (reason ?? REASONS[status] ?? String(status)),
    ms: Math.round(ms * 100) / 100,
  });
}
