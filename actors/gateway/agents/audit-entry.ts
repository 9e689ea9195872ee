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
  /** What a call that changed something changed: the commit it made, the vault paths, the fact or episode ids. */
  changed?: Changed;
}

export interface Changed {
  commit?: string;
  paths?: string[];
  /** Fact log ids (`2026-05-01#a1b2c3d4`), knowledge fact ids (as text), episode ids (`task:T-1`). */
  ids?: string[];
}

export const queryHash = (q: string): string => createHash('sha256').update(q).digest('hex').slice(0, 16);

/** An entry before the audit log stamps its time. */
export type AuditEvent = Omit<AuditEntry, 't'>;

/**
 * What a call that answered `result` changed, read from its answer, for the tools that change something (undefined
 * for the rest, and for a call that changed nothing: a duplicate fact, an episode forget's answer has no commit).
 */
export function changedBy(tool: string, result: unknown): Changed | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const r = result as Record<string, unknown>;
  const text = (v: unknown): string[] => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : []);
  let ids: string[];
  switch (tool) {
    case 'vault_write':
    case 'vault_undo_last':
      ids = [];
      break;
    case 'memory_remember':
      ids = text(r['fact_id']);
      break;
    case 'memory_forget':
      ids = Array.isArray(r['forgotten'])
        ? (r['forgotten'] as Array<Record<string, unknown>>).flatMap((f) => text(f['fact_id'] ?? f['episode_id']))
        : [];
      break;
    case 'memory_add_fact':
      ids = [...text(r['id']), ...(Array.isArray(r['superseded']) ? r['superseded'].flatMap(text) : [])];
      break;
    case 'memory_invalidate_fact':
      ids = [...text(r['previous_id']), ...text(r['id'])];
      break;
    case 'memory_delete_fact':
      ids = text(r['id']);
      break;
    default:
      return undefined;
  }
  if (typeof r['commit'] !== 'string' && ids.length === 0) return undefined;
  const paths = Array.isArray(r['paths']) ? r['paths'].flatMap(text) : text(r['path']);
  return {
    ...(typeof r['commit'] === 'string' ? { commit: r['commit'] } : {}),
    ...(paths.length > 0 && typeof r['commit'] === 'string' ? { paths } : {}),
    ...(ids.length > 0 ? { ids } : {}),
  };
}

/** The audit line of one tool call; `result`: its answer when it succeeded (what it changed is read from it). */
export function auditEntry(tool: string, rawArgs: unknown, ctx: CallContext, outcome: string, ms: number, result?: unknown): AuditEvent {
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
    ...((c) => (c ? { changed: c } : {}))(changedBy(tool, result)),
  };
}
