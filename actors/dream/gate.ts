// The dream gate, pure: which log days are pending (after the watermark, strictly before today in the scheduler's
// zone — never the day in progress), the batch a run takes, and whether a tick runs it now: a catch-up sprint,
// the steady gate (min_hours since the last attempt and min_facts pending), a batch to skip after max_retries,
// or idle with the reason and the next eligible time. Failed batches back off (interval × 2^(failures−1)).
import { localDate } from '../scheduler/dates.js';

export interface GateSettings {
  interval_s: number;
  max_days: number;
  min_hours: number;
  min_facts: number;
  max_retries: number;
}

/** What the dream remembers across restarts (`<data dir>/dream/state.json`). */
export interface GateState {
  /** Epoch ms of the last run attempted (whatever its outcome). */
  lastAttemptMs: number | null;
  /** Failed attempts per batch key (`first..last`). */
  failures: Record<string, number>;
  /** A catch-up sprint under way: set when more than max_days were pending, cleared once nothing is. */
  sprint: boolean;
}

export const EMPTY_GATE: GateState = { lastAttemptMs: null, failures: {}, sprint: false };

export interface DayFacts {
  date: string;
  facts: number;
}

export type Decision =
  | { kind: 'run'; mode: 'sprint' | 'steady' | 'forced'; batch: string[]; key: string; facts: number }
  | { kind: 'skip'; batch: string[]; key: string; failures: number }
  | {
      kind: 'idle';
      reason: 'nothing_pending' | 'too_soon' | 'too_few_facts' | 'backing_off';
      nextEligibleMs: number | null;
      pending: number;
    };

export function batchKey(batch: readonly string[]): string {
  return `${batch[0] ?? ''}..${batch[batch.length - 1] ?? ''}`;
}

/** Log days after `watermark` and before `today`, oldest first. */
export function pendingDays(days: readonly DayFacts[], watermark: string | null, today: string): DayFacts[] {
  return days.filter((d) => (watermark === null || d.date > watermark) && d.date < today).sort((a, b) => (a.date < b.date ? -1 : 1));
}

export interface GateInput {
  days: readonly DayFacts[];
  watermark: string | null;
  state: GateState;
  nowMs: number;
  tz: string;
  cfg: GateSettings;
  /** `memvault consolidate`: bypasses the gate (not the lock, not the skip of a batch that failed max_retries times — unless `force`). */
  requested?: boolean;
}

export function decide(i: GateInput): Decision {
  const today = localDate(i.nowMs, i.tz);
  const pending = pendingDays(i.days, i.watermark, today);
  if (pending.length === 0) return { kind: 'idle', reason: 'nothing_pending', nextEligibleMs: null, pending: 0 };
  const batch = pending.slice(0, i.cfg.max_days);
  const dates = batch.map((d) => d.date);
  const key = batchKey(dates);
  const facts = batch.reduce((n, d) => n + d.facts, 0);
  const failed = i.state.failures[key] ?? 0;
  if (failed >= i.cfg.max_retries) return { kind: 'skip', batch: dates, key, failures: failed };
  if (i.requested) return { kind: 'run', mode: 'forced', batch: dates, key, facts };
  const last = i.state.lastAttemptMs;
  if (failed > 0 && last !== null) {
    const back = last + i.cfg.interval_s * 1000 * 2 ** (failed - 1);
    if (i.nowMs < back) return { kind: 'idle', reason: 'backing_off', nextEligibleMs: back, pending: pending.length };
  }
  if (pending.length > i.cfg.max_days || i.state.sprint) return { kind: 'run', mode: 'sprint', batch: dates, key, facts };
  if (last !== null && i.nowMs < last + i.cfg.min_hours * 3_600_000)
    return { kind: 'idle', reason: 'too_soon', nextEligibleMs: last + i.cfg.min_hours * 3_600_000, pending: pending.length };
  const allFacts = pending.reduce((n, d) => n + d.facts, 0);
  if (allFacts < i.cfg.min_facts) return { kind: 'idle', reason: 'too_few_facts', nextEligibleMs: null, pending: pending.length };
  return { kind: 'run', mode: 'steady', batch: dates, key, facts };
}

/** The state after an attempt of `key`: progress clears its failures, none adds one; the sprint flag follows what is left. */
export function afterAttempt(
  s: GateState,
  a: { key: string; nowMs: number; progress: boolean; pendingBefore: number; batchDays: number; maxDays: number },
): GateState {
  const failures = { ...s.failures };
  if (a.progress) delete failures[a.key];
  else failures[a.key] = (failures[a.key] ?? 0) + 1;
  const left = a.progress ? a.pendingBefore - a.batchDays : a.pendingBefore;
  const sprint = left > 0 && (s.sprint || a.pendingBefore > a.maxDays);
  return { lastAttemptMs: a.nowMs, failures, sprint };
}

/** The state after a batch was skipped: its failure count is done with; the sprint goes on if days are left. */
export function afterSkip(s: GateState, key: string, leftAfter: number): GateState {
  const failures = { ...s.failures };
  delete failures[key];
  return { ...s, failures, sprint: s.sprint && leftAfter > 0 };
}
