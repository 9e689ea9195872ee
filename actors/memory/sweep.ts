// The retention sweep as the memory actor runs it: expired episode rows removed by the store writer in one
// transaction, then journal days older than the longest retention dropped; after every replay and on a timer.
import type { Config } from '../../config/load.js';
import type { PruneCounts } from '../../messages/episodes.js';
import type { PruneResult } from '../../messages/to-memory.js';
import { dayOf, type Journal } from './journal.js';
import { retentionCutoffs } from './retention.js';

export interface SweepDeps {
  cfg: Config;
  journal: Journal;
  /** The journal is this process's to change (not a reindex build). */
  live: boolean;
  prune(cutoffs: Partial<Record<'chat' | 'task' | 'correction', number>>): Promise<PruneCounts>;
  wallNow(): number;
  done(r: Extract<PruneResult, { ok: true }>): void;
}

export async function sweepOnce(d: SweepDeps): Promise<Extract<PruneResult, { ok: true }>> {
  const { cutoffs, journalBefore } = retentionCutoffs(d.cfg.retention.days, d.wallNow());
  const counts = await d.prune(cutoffs);
  const dropped = d.live && journalBefore !== null ? d.journal.dropBefore(dayOf(journalBefore)) : 0;
  const r = {
    ok: true as const,
    removed: counts.removed,
    journal_files_dropped: dropped,
    cutoffs: Object.fromEntries(
      (['chat', 'task', 'correction'] as const).map((t) => [t, cutoffs[t] !== undefined ? new Date(cutoffs[t]).toISOString() : null]),
    ),
  };
  d.done(r);
  return r;
}

/** Runs the sweep every `retention.sweep_every_h` (an hour after a failed one); not in a reindex build. */
export class SweepTimer {
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly d: SweepDeps,
    readonly failed: (err: unknown) => void,
  ) {}

  arm(ms = this.d.cfg.retention.sweep_every_h * 3_600_000): void {
    if (!this.d.live) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      sweepOnce(this.d).then(
        () => this.arm(),
        (err: unknown) => {
          this.failed(err);
          this.arm(3_600_000);
        },
      );
    }, ms);
    this.#timer.unref();
  }
}
