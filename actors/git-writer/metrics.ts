// The git writer's metrics, registered in its thread's default registry (merged into /metrics by main).
import { Counter, Histogram } from 'prom-client';

export const writes = new Counter<'op' | 'outcome'>({
  name: 'memvault_writes_total',
  help: 'Agent mutations by operation and outcome (ok or reason code)',
  labelNames: ['op', 'outcome'],
});
export const phases = new Histogram<'phase'>({
  name: 'memvault_write_duration_seconds',
  help: 'Write latency by phase: file (validate + durable file), commit, total',
  labelNames: ['phase'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1],
});
export const commits = new Counter<'kind'>({
  name: 'memvault_commits_total',
  help: 'Commits made, by kind (agent, undo, human)',
  labelNames: ['kind'],
});
export const journalFailures = new Counter({
  name: 'memvault_intent_journal_failures_total',
  help: 'Agent writes whose intent could not be journaled (data dir full or read-only)',
});
export const undos = new Counter<'outcome'>({ name: 'memvault_undos_total', help: 'Undo requests by outcome', labelNames: ['outcome'] });
export const worktree = new Counter<'by'>({
  name: 'memvault_worktree_changes_total',
  help: 'Changed notes seen on disk, by whose change: own (the echo of a write of ours) or person',
  labelNames: ['by'],
});
