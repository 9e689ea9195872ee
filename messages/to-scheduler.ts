// Messages the scheduler receives (both requests, from the gateway's /v1/jobs routes): run a job now, and list the
// jobs. What a run comes to is data: written, skipped (idempotent, or nothing to do / idle), or failed with a reason.
import type { Failure } from './common.js';

export type SchedulerMsg =
  | { type: 'scheduler.run'; job: string; date?: string; event?: string }
  | { type: 'scheduler.jobs' }
  /** GET /v1/dream, memvault dream status (actors/dream/cycle.ts). */
  | { type: 'scheduler.dream_status' }
  /** POST /v1/consolidate, memvault consolidate [--force]: bypasses the gate, never the lock. */
  | { type: 'scheduler.consolidate'; force: boolean }
  /** Request (main, after a reindex's swap): read the swapped-in index file from now on; answered `{ reopened: true }`. */
  | { type: 'scheduler.index_swapped' };

export type RunOutcomeName = 'written' | 'skipped_idempotent' | 'skipped' | 'failed';

/** One note a run wrote or did not write. */
export interface NoteOutcome {
  outcome: RunOutcomeName;
  path: string | null;
  commit: string | null;
  reason: string | null;
}

/**
 * A run's answer (`POST /v1/jobs/<job>/run`, `memvault run`): the note's outcome, or for a job that handles several
 * notes in one run (meeting notes, person profiles) the first written one, with every note's outcome in `results`.
 */
export interface JobRunResult extends NoteOutcome {
  job: string;
  results: NoteOutcome[];
  ms: number;
}

export type RunRefusal = Failure<'unknown_job' | 'bad_request'>;

export interface LastRun {
  at: string;
  trigger: 'schedule' | 'catch_up' | 'manual';
  /** The cron slot the run was for (ISO), or null (interval and manual runs). */
  slot: string | null;
  outcome: RunOutcomeName;
  reason: string | null;
  path: string | null;
  commit: string | null;
  ms: number;
}

export interface JobInfo {
  name: string;
  enabled: boolean;
  /** `scheduled`, `running`, `idle` (with the reason: no LLM, no calendar …) or `disabled`. */
  state: 'scheduled' | 'running' | 'idle' | 'disabled';
  reason: string | null;
  /** The cron expression, or `every N s` for polled jobs. */
  schedule: string;
  tz: string;
  next_run: string | null;
  last_run: LastRun | null;
}

export interface JobsList {
  jobs: JobInfo[];
  llm: { state: string; reason: string | null };
}
