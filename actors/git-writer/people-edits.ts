// When the git writer commits people's own edits: after a quiet period, in slices that let agents' writes go
// between, retried with backoff when git refuses — split from the actor so its message handling reads at once.

import { systemClock, type Clock, type TimerHandle } from '../../supervisors/clock.js';

export interface PeopleEditsOptions {
  /** Quiet period after the last change before the person's edits are committed. */
  quietMs: number;
  /** Queues `fn` behind every git operation already queued (the actor's one serial chain); its throw is a bug. */
  serial: (fn: () => Promise<void>) => Promise<void>;
  /** Commits these paths as the person; false when git refused (they are kept and retried). */
  commit: (paths: string[]) => Promise<boolean>;
  /** Default the system clock; tests pass a ManualClock. */
  clock?: Clock;
}

/**
 * People's edits are committed SLICE notes per turn of the serial chain, the next turn queued after agents' writes
 * that arrived meanwhile: one commit of a 10,000-note drop held every agent write for ~17 s (issue 4, overload).
 * Paths stay pending until their turn, so an agent writing one of them still commits the person's text first.
 */
const SLICE = 500;
/** Each change restarts the quiet period, but a steady stream must not postpone a person's edit forever. */
const MAX_QUIET_PERIODS = 10;
const MAX_RETRY_MS = 60_000;

export class PeopleEdits {
  readonly #o: PeopleEditsOptions;
  readonly #pending = new Set<string>();
  #timer: TimerHandle | null = null;
  readonly #clock: Clock;
  #retryMs = 0;
  #waitingSince = 0;
  #chain = false;

  constructor(o: PeopleEditsOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
  }

  /** Paths changed on disk (already filtered and NFC): committed as the person after the quiet period. */
  changed(paths: readonly string[]): void {
    for (const p of paths) this.#pending.add(p);
    if (this.#pending.size === 0) return;
    const now = this.#clock.now();
    if (!this.#timer) this.#waitingSince = now;
    if (now - this.#waitingSince < MAX_QUIET_PERIODS * this.#o.quietMs) this.#arm(this.#o.quietMs);
  }

  /** `paths` are being committed by someone else now (a WebDAV write): no longer pending. */
  forget(paths: readonly string[]): void {
    for (const p of paths) this.#pending.delete(p.normalize('NFC'));
  }

  /** An agent is about to change `paths`: a person's pending edit of any of them is committed first, as theirs. */
  async commitFirst(paths: readonly string[]): Promise<void> {
    const touched = paths.map((p) => p.normalize('NFC')).filter((p) => this.#pending.has(p));
    if (touched.length === 0) return;
    for (const p of touched) this.#pending.delete(p);
    await this.commitNow(touched);
  }

  /** Every pending edit committed now, as the person's: an undo is about to read the history. */
  async commitAll(): Promise<void> {
    await this.commitFirst([...this.#pending]);
  }

  /** Commits `paths` as the person now; if git refuses, they wait for a retry (1 s doubling to 60 s). */
  async commitNow(paths: string[]): Promise<void> {
    let taken: boolean;
    try {
      taken = await this.#o.commit(paths);
    } catch (err) {
      for (const p of paths) this.#pending.add(p); // a bug: thrown, but the paths are not lost with it
      throw err;
    }
    if (taken) {
      this.#retryMs = 0;
      return;
    }
    // e.g. the disk was full: keep the paths and try again later, or the edit stays uncommitted until a restart
    this.#retryMs = Math.min(MAX_RETRY_MS, Math.max(this.#o.quietMs, this.#retryMs * 2 || 1_000));
    for (const p of paths) this.#pending.add(p);
    this.#arm(this.#retryMs);
  }

  #arm(ms: number): void {
    if (this.#timer) this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      if (this.#chain) return; // a chain of slices is already running: it takes the new paths too
      this.#chain = true;
      void this.#o.serial(() => this.#slice());
    }, ms);
  }

  async #slice(): Promise<void> {
    try {
      const slice = [...this.#pending].slice(0, SLICE);
      for (const p of slice) this.#pending.delete(p);
      if (slice.length > 0) await this.commitNow(slice);
    } catch (err) {
      this.#chain = false;
      throw err;
    }
    // a failed slice (retry set) waits for its retry timer rather than spinning here
    if (this.#pending.size > 0 && this.#retryMs === 0) void this.#o.serial(() => this.#slice());
    else this.#chain = false;
  }
}
