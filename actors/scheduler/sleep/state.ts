// What the nightly extraction has read, `<data dir>/scheduler/sleep.json`: the last episode journal record (seq and
// its file) and the fact log's last day read with the facts of that day already seen. Saved only after a run's
// writes are done (or the answer was NO_NEW_MEMORIES), atomically: a restart neither repeats nor skips.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../../../supervisors/runtime/durable-file.js';

export interface SleepCursor {
  /** The last journal record read (its seq), and the file holding it; null: none yet. */
  episodes: { seq: number; file: string } | null;
  /** The fact log's last day read (YYYY-MM-DD) and the ids of its facts seen; null: none yet. */
  facts: { date: string; ids: string[] } | null;
}

export interface SleepState extends SleepCursor {
  /** When the last run that advanced the cursor ended (ISO), or null. */
  lastRun: string | null;
}

export const EMPTY_SLEEP: SleepState = { episodes: null, facts: null, lastRun: null };

export function sleepStateFile(dataDir: string): string {
  return path.join(dataDir, 'scheduler', 'sleep.json');
}

/** A missing or damaged file is a first run (the look-back window, not the whole history). */
export function loadSleepState(file: string): SleepState {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<SleepState> & { version?: number };
    const ep = raw.episodes;
    const f = raw.facts;
    return {
      episodes: ep && Number.isSafeInteger(ep.seq) && typeof ep.file === 'string' ? { seq: ep.seq, file: ep.file } : null,
      facts:
        f && typeof f.date === 'string' && Array.isArray(f.ids) ? { date: f.date, ids: f.ids.filter((x) => typeof x === 'string') } : null,
      lastRun: typeof raw.lastRun === 'string' ? raw.lastRun : null,
    };
  } catch {
    return { ...EMPTY_SLEEP };
  }
}

export function saveSleepState(file: string, s: SleepState): void {
  replaceFileSync(file, `${JSON.stringify({ version: 1, ...s }, null, 2)}\n`);
}
