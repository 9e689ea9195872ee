// The gateway's side of the keyword thread: a hybrid search hands its keyword rows to it and runs its vector pass
// meanwhile, instead of reading them first (FTS5's bm25 is a search's longest single part: ~5 ms at 100k chunks).
// One search at a time: while the thread reads one search's rows, another search reads its own in the gateway.
import { Worker } from 'node:worker_threads';
import { assertNever } from '../../messages/common.js';
import type { FromKeyword, KeywordAsk, ToKeyword } from '../../messages/keyword.js';
import { monotonicMs } from '../../supervisors/clock.js';
import { entry } from '../../supervisors/runtime/code-files.js';
import { WORKER_YOUNG_MB } from '../../supervisors/runtime/worker-heap.js';
import type { Row } from './keyword-rows.js';

/** After the thread died, searches read their own keyword rows this long before it is started again. */
export const RESTART_AFTER_MS = 1_000;

export interface KeywordFound {
  /** the index generation the rows were read in */
  generation: number;
  match: string;
  rows: Row[];
}

export interface KeywordThreadOptions {
  /** Monotonic milliseconds (tests inject a clock). */
  now?: () => number;
  /** A read that failed (reason code, message); the search then reads its rows itself. */
  onFailure?: (reason: string, message: string) => void;
}

export class KeywordThread {
  #worker: Worker | null = null;
  #ready = false;
  #closed = false;
  #nextId = 1;
  readonly #pending = new Map<number, (found: KeywordFound | null) => void>();
  #diedAt = Number.NEGATIVE_INFINITY;
  readonly #now: () => number;
  readonly #onFailure: (reason: string, message: string) => void;
  /** Times a thread was started, and times one ended other than by close(). */
  starts = 0;
  deaths = 0;
  /** Reads the thread answered with rows. */
  answered = 0;
  #readyWaiters: Array<() => void> = [];
  #idleWaiters: Array<() => void> = [];

  constructor(opts: KeywordThreadOptions = {}) {
    this.#now = opts.now ?? monotonicMs;
    this.#onFailure = opts.onFailure ?? (() => {});
  }

  /** Starts the thread now rather than at the first search (it loads its modules and opens the index when asked). */
  start(): void {
    if (!this.#worker && !this.#closed) this.#spawn();
  }

  /** Whether the thread has started and takes reads. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Resolves when the thread takes reads (tests; a search never waits for it). */
  whenReady(): Promise<void> {
    return this.#ready ? Promise.resolve() : new Promise((r) => this.#readyWaiters.push(r));
  }

  /** Resolves when no read is under way. */
  idle(): Promise<void> {
    return this.#pending.size === 0 ? Promise.resolve() : new Promise((r) => this.#idleWaiters.push(r));
  }

  /**
   * The rows `ask` names, read in the thread; null at once when the thread cannot take them now (starting, busy with
   * another search's rows, restarting after it died, closed), and the promise gives null when it failed or died
   * meanwhile: the search then reads its rows itself.
   */
  read(ask: KeywordAsk): Promise<KeywordFound | null> | null {
    if (this.#closed) return null;
    if (!this.#worker && this.#now() - this.#diedAt >= RESTART_AFTER_MS) this.#spawn();
    const w = this.#worker;
    if (!w || !this.#ready || this.#pending.size > 0) return null;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      w.postMessage({ type: 'keyword.read', id, ask } satisfies ToKeyword);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const w = this.#worker;
    this.#worker = null;
    this.#settleAll();
    if (w) await w.terminate();
  }

  /** Ends the thread as a crash would (tests). */
  async kill(): Promise<void> {
    await this.#worker?.terminate();
  }

  #spawn(): void {
    const w = new Worker(entry('actors/gateway/keyword-worker.js'), {
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    w.unref(); // the gateway's thread ends without waiting for it
    this.starts++;
    this.#worker = w;
    this.#ready = false;
    w.on('message', (m: FromKeyword) => this.#received(m));
    w.on('error', (err) => this.#onFailure('keyword_thread_failed', err.message));
    w.on('exit', () => {
      if (this.#worker !== w) return; // closed, or already replaced
      this.#worker = null;
      this.#ready = false;
      this.#diedAt = this.#now();
      this.deaths++;
      this.#settleAll();
    });
  }

  #received(m: FromKeyword): void {
    switch (m.type) {
      case 'keyword.ready':
        this.#ready = true;
        for (const r of this.#readyWaiters.splice(0)) r();
        return;
      case 'keyword.rows': {
        const rows: Row[] = new Array(m.ids.length);
        for (let i = 0; i < m.ids.length; i++) rows[i] = [m.ids[i]!, m.bm25[i]!];
        this.answered++;
        this.#settle(m.id, { generation: m.generation, match: m.match, rows });
        return;
      }
      case 'keyword.failed':
        this.#onFailure(m.reason, m.message);
        this.#settle(m.id, null);
        return;
      default:
        assertNever(m);
    }
  }

  #settle(id: number, found: KeywordFound | null): void {
    const resolve = this.#pending.get(id);
    this.#pending.delete(id);
    resolve?.(found);
    this.#wakeIdle();
  }

  #settleAll(): void {
    for (const resolve of this.#pending.values()) resolve(null);
    this.#pending.clear();
    this.#wakeIdle();
  }

  #wakeIdle(): void {
    if (this.#pending.size === 0) for (const r of this.#idleWaiters.splice(0)) r();
  }
}
