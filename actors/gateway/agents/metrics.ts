// Per-agent metrics: calls by agent, tool and outcome, and refusals (forbidden, rate_limited, unauthorized) by agent.
// Counted from the audit events, so every audited call is counted once.
import { Counter, register, type Registry } from 'prom-client';
import type { AuditEvent } from './audit-entry.js';

// `revoked`, `rotated`: an unauthorized token that was an agent's, audited under its name (route-audit.ts)
const REFUSALS = new Set(['forbidden', 'rate_limited', 'unauthorized', 'sensitive', 'revoked', 'rotated']);

export function agentMetrics(registry: Registry = register) {
  const calls =
    (registry.getSingleMetric('memvault_agent_calls_total') as Counter<'agent' | 'tool' | 'outcome'> | undefined) ??
    new Counter<'agent' | 'tool' | 'outcome'>({
      name: 'memvault_agent_calls_total',
      help: 'Tool calls and HTTP routes by agent (credential name; the owner token counts as its X-Memvault-Agent), tool and outcome',
      labelNames: ['agent', 'tool', 'outcome'],
      registers: [registry],
    });
  const refusals =
    (registry.getSingleMetric('memvault_agent_refusals_total') as Counter<'agent' | 'reason'> | undefined) ??
    new Counter<'agent' | 'reason'>({
      name: 'memvault_agent_refusals_total',
      help: 'Calls refused for the caller: forbidden (scope, folders, ownership), rate_limited, unauthorized (revoked, rotated: an old token of that agent), sensitive',
      labelNames: ['agent', 'reason'],
      registers: [registry],
    });
  return {
    count(e: AuditEvent): void {
      calls.inc({ agent: e.agent, tool: e.tool, outcome: e.outcome });
      if (REFUSALS.has(e.outcome)) refusals.inc({ agent: e.agent, reason: e.outcome });
    },
  };
}

/**
 * What `memvault audit --refused` lists: every call refused for what it asked — the refusals counted above, and the
 * argument and path reasons (a path out of reach, a file that is no note, a reserved or oversized one). Answers about
 * the vault's state (not_found, conflict, nothing_to_undo, …) and the daemon's own trouble (busy, internal) are not.
 */
const AUDIT_REFUSALS = new Set([
  ...REFUSALS,
  'bad_request',
  'path_escape',
  'not_markdown',
  'outside_allowlist',
  'reserved',
  'too_large',
  'invalid_content',
]);
export const isRefusal = (outcome: string): boolean => AUDIT_REFUSALS.has(outcome);
