// One line of the audit trail: who called what, on which path (or a hash of the query: search words stay out of the
// trail), the outcome or the refusal's reason, and how long it took.
import { createHash } from 'node:crypto';
import type { CallContext } from '../tools/types.js';

export interface AuditEntry {
  /** ISO time. */
  t: string;
  agent: string;
  /** `owner` (the token in <data dir>/token, named by its header) or `agent` (its own credential). */
  kind: 'owner' | 'agent' | 'anonymous';
  /** The tool, or the HTTP route (`route:/v1/jobs`). */
  tool: string;
  transport: string;
  path?: string;
  /** sha256 of the query, first 16 hex digits. */
  query_hash?: string;
  /** `ok` or the reason code (`forbidden`, `rate_limited`, `unauthorized`, …). */
  outcome: string;
  ms: number;
}

export const queryHash = (q: string): string => createHash('sha256').update(q).digest('hex').slice(0, 16);

/** An entry before the audit log stamps its time. */
export type AuditEvent = Omit<AuditEntry, 't'>;

export function auditEntry(tool: string, rawArgs: unknown, ctx: CallContext, outcome: string, ms: number): AuditEvent {
  const a = (rawArgs !== null && typeof rawArgs === 'object' ? rawArgs : {}) as Record<string, unknown>;
  const target = typeof a['path'] === 'string' ? a['path'] : typeof a['folder'] === 'string' ? a['folder'] : undefined;
  const q = typeof a['query'] === 'string' ? a['query'] : undefined;
  return {
    agent: ctx.principal?.name ?? ctx.agent,
    kind: ctx.principal?.kind ?? 'owner',
    tool,
    transport: ctx.transport,
    ...(target !== undefined ? { path: target.slice(0, 1024) } : {}),
    ...(q !== undefined ? { query_hash: queryHash(q) } : {}),
    outcome,
    ms: Math.round(ms * 100) / 100,
  };
}
