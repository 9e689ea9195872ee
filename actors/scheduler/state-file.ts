// The scheduler's memory across restarts, `<data dir>/scheduler/state.json`: per job the last slot handled, a slot
// whose run was cut off, a slot owed because the LLM was down, and the last run's outcome. Written atomically
// (temp file, fsync, rename), so a crash leaves the old state or the new one, never half of either.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../../supervisors/runtime/durable-file.js';
import type { LastRun } from '../../messages/to-scheduler.js';

export interface JobState {
  /** The last cron slot (epoch ms) handled: run, caught up, or passed over as too old. Never run again. */
  lastSlot: number | null;
  /** Set while a slot's run is under way: still set at start means the run was cut off, and it runs once more. */
  runningSlot: number | null;
  /** A slot that could not run (LLM down, a transient failure): made up when the LLM is back, within catch-up. */
  owedSlot: number | null;
  /** Interval jobs: when the next run is due (epoch ms). */
  nextAt: number | null;
  lastRun: LastRun | null;
}

export const EMPTY_JOB: JobState = { lastSlot: null, runningSlot: null, owedSlot: null, nextAt: null, lastRun: null };

export interface StateStore {
  load(): Record<string, JobState>;
  /** `durable` false: no fsync (a manual run's last_run is worth less than its latency). */
  save(all: Record<string, JobState>, durable?: boolean): void;
}

export class FileStateStore implements StateStore {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'scheduler', 'state.json');
  }

  /** An unreadable or damaged file is started afresh (the slots it held are then treated as first seen). */
  load(): Record<string, JobState> {
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as { jobs?: Record<string, Partial<JobState>> };
      const out: Record<string, JobState> = {};
      for (const [name, s] of Object.entries(raw.jobs ?? {})) out[name] = { ...EMPTY_JOB, ...s };
      return out;
    } catch {
      return {};
    }
  }

  save(all: Record<string, JobState>, durable = true): void {
    replaceFileSync(this.file, `${JSON.stringify({ version: 1, jobs: all }, null, 2)}\n`, durable);
  }
}
