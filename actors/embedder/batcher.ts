// Micro-batching queue: texts from many notes are gathered into one model call of up to `maxBatch`, flushed when full
// or after a short window, with at most `concurrency` calls running (one per pool thread) so both cores stay busy.

import { systemClock, type Clock, type TimerHandle } from '../../supervisors/clock.js';

export interface BatcherOptions {
  maxBatch: number;
  windowMs: number;
  concurrency: number;
  run: (texts: string[]) => Promise<Float32Array[]>;
  /** Default the system clock; tests pass a ManualClock. */
  clock?: Clock;
  onBatch?: (size: number, ms: number) => void;
}

interface Item {
  text: string;
  done: (v: Float32Array) => void;
  fail: (e: unknown) => void;
}

export class Batcher {
  readonly #o: BatcherOptions;
  readonly #queue: Item[] = [];
  #running = 0;
  #timer: TimerHandle | null = null;
  readonly #clock: Clock;

  constructor(opts: BatcherOptions) {
    this.#o = opts;
    this.#clock = opts.clock ?? systemClock;
  }

  get queued(): number {
    return this.#queue.length;
  }
  get running(): number {
    return this.#running;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const all = texts.map(
      (text) =>
        new Promise<Float32Array>((done, fail) => {
          this.#queue.push({ text, done, fail });
        }),
    );
    this.#pump();
    return Promise.all(all);
  }

  #pump(): void {
    const o = this.#o;
    while (this.#running < o.concurrency && this.#queue.length >= o.maxBatch) this.#dispatch();
    if (this.#queue.length === 0 || this.#running >= o.concurrency) return;
    // a partial batch waits a short window for company while a thread is free
    if (this.#timer === null) {
      this.#timer = this.#clock.setTimeout(() => {
        this.#timer = null;
        if (this.#queue.length > 0 && this.#running < o.concurrency) this.#dispatch();
        this.#pump();
      }, o.windowMs);
    }
  }

  #dispatch(): void {
    const o = this.#o;
    if (this.#timer !== null) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = null;
    }
    const batch = this.#queue.splice(0, o.maxBatch);
    this.#running++;
    const started = this.#clock.now();
    // started now, in this turn; a run that throws at once fails its batch like one that rejects
    let running: Promise<Float32Array[]>;
    try {
      running = o.run(batch.map((b) => b.text));
    } catch (err) {
      running = Promise.reject(err);
    }
    running
      .then(
        (vectors) => {
          o.onBatch?.(batch.length, this.#clock.now() - started);
          batch.forEach((b, i) => {
            const v = vectors[i];
            if (v) b.done(v);
            else b.fail(new Error(`embedder returned ${vectors.length} vectors for ${batch.length} texts`));
          });
        },
        (err) => batch.forEach((b) => b.fail(err)),
      )
      .finally(() => {
        this.#running--;
        this.#pump();
      });
  }
}
