// The dream's memory across restarts, `<data dir>/dream/state.json`: the gate's last attempt, failures per batch and
// sprint flag, and the last run's summary. Written atomically (temp file, fsync, rename): a crash leaves the old
// state or the new one. The watermark is not here: it lives in the vault (Memory/log.md), so undoing a run moves it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../../supervisors/runtime/durable-file.js';
import { EMPTY_GATE, type GateState } from './gate.js';

export type RunOutcome = 'consolidated' | 'no_progress' | 'failed' | 'skipped' | 'interrupted';

export interface LastDreamRun {
  id: string;
  outcome: RunOutcome;
  batch: string;
  pages: number;
  covered: number;
  uncovered: number;
  tokens: number;
  cost: number;
  reason: string | null;
  at: string;
}

export interface DreamState extends GateState {
  lastRun: LastDreamRun | null;
  /** The run under way (set before its first write, cleared at its end): still set at start means it was cut off. */
  running: { id: string; batch: string } | null;
}

export const EMPTY_STATE: DreamState = { ...EMPTY_GATE, lastRun: null, running: null };

export class DreamStateFile {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'dream', 'state.json');
  }

  /** A missing or damaged file starts afresh (the watermark in the vault still says what is done). */
  load(): DreamState {
    try {
      const { version: _v, ...raw } = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<DreamState> & { version?: number };
      return { ...EMPTY_STATE, ...raw, failures: { ...(raw.failures ?? {}) } };
    } catch {
      return { ...EMPTY_STATE, failures: {} };
    }
  }

  save(s: DreamState): void {
    replaceFileSync(this.file, `${JSON.stringify({ version: 1, ...s }, null, 2)}\n`);
  }
}
