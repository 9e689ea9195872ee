// The daemon's embedding thread pools, owned by main so they outlive embedder and gateway restarts: killing an
// actor never kills a thread inside onnxruntime (which would abort the process), and a restarted embedder finds
// its models loaded. Each actor incarnation gets a fresh MessagePort to them (see actors/embedder/pool-api.ts).
import '../actors/embedder/onnxruntime-telemetry.js';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EmbedTask, PoolOutcome } from '../actors/embedder/pool-task.js';
import { servePools, type PoolName } from '../actors/embedder/pool-api.js';
import { systemClock, type Clock, type TimerHandle } from '../supervisors/clock.js';
import { entry } from '../supervisors/runtime/code-files.js';

/** How long destroy waits for the tasks inside the threads before it ends them anyway. */
const DRAIN_MS = 30_000;
/**
 * Young generation (MiB) of each worker thread's V8 heap (actors and pool threads): V8 lets it grow to 3 × 16 MiB
 * per thread under allocation; at 8 the daemon's threads together held ~27 MB less after indexing than uncapped, at
 * 4 another 20–35 MB less once idle and ~12 MB less at the peak (bench/daemon-rss.ts; README, Memory).
 */
export const WORKER_YOUNG_MB = 4;
/**
 * A bulk task of at most this many texts, arriving while the bulk threads are released and nothing else borrows the
 * query thread, runs on the query thread's loaded session instead of starting the bulk threads (~0.5 s each with
 * their sessions): a person's edit re-embeds a chunk or two, and is searchable as fast as before the release.
 */
const BORROW_MAX_TEXTS = 4;

export interface PoolOptions {
  /**
   * The bulk threads, each with its model session (~55–80 MB), end after this long without work and start again
   * (~0.5 s: the model file is cached) with the next burst; 0 keeps them. The query pool's one thread always stays,
   * so searches never wait for a model.
   */
  releaseAfterMs?: number;
  clock?: Clock;
}

interface Pool {
  piscina: Piscina<EmbedTask, PoolOutcome>;
  threads: number;
  /** Tasks inside a thread now: at most `threads`. */
  running: Set<Promise<PoolOutcome>>;
  /** Tasks waiting for a thread, here rather than in piscina's queue, so that destroy can answer them at once. */
  waiting: Array<{ task: EmbedTask; resolve: (o: PoolOutcome) => void }>;
}

export class EmbedPools {
  readonly #pools = new Map<PoolName, Pool>();
  readonly #ports = new Set<MessagePort>();
  readonly #releaseAfterMs: number;
  readonly #clock: Clock;
  #stopped = false;
  #releaseTimer: TimerHandle | null = null;
  /** Bulk pools being destroyed after their idle release. */
  readonly #releasing = new Set<Promise<void>>();
  /** The settings the query thread's model was first asked for: a bulk task borrows it only with the same ones. */
  #querySettings: string | null = null;
  /** Bulk tasks running on the query thread now (at most one). */
  #borrowed = 0;
  /** How many times the bulk threads were released after idling. */
  releases = 0;

  /** `bulkNice`: the bulk threads' niceness (Linux), so a backlog being embedded yields the CPU to searches and writes. */
  constructor(
    readonly bulkThreads: number,
    readonly bulkNice = 0,
    opts: PoolOptions = {},
  ) {
    this.#releaseAfterMs = opts.releaseAfterMs ?? 10_000;
    this.#clock = opts.clock ?? systemClock;
  }

  /** Whether the pool's threads (and their model sessions) are alive now. */
  loaded(name: PoolName): boolean {
    return this.#pools.has(name);
  }

  /** Resolves when every released bulk pool's threads have ended. */
  async released(): Promise<void> {
    await Promise.all([...this.#releasing]);
  }

  #pool(name: PoolName): Pool {
    let p = this.#pools.get(name);
    if (!p) {
      const bulk = name === 'bulk';
      const threads = bulk ? this.bulkThreads : 1;
      const piscina = new Piscina<EmbedTask, PoolOutcome>({
        filename: entry('actors/embedder/pool-task.js').href,
        minThreads: bulk ? 0 : threads,
        maxThreads: threads,
        idleTimeout: Infinity, // the bulk pool is released as a whole (#release), on the injected clock
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
        workerData: { nice: bulk ? this.bulkNice : 0 },
      });
      p = { piscina, threads, running: new Set(), waiting: [] };
      this.#pools.set(name, p);
    }
    return p;
  }

  run(name: PoolName, task: EmbedTask): Promise<PoolOutcome> {
    if (this.#stopped) return Promise.resolve(stopped());
    if (name === 'query') this.#querySettings ??= JSON.stringify(task.settings);
    else {
      this.#cancelRelease();
      if (this.#mayBorrow(task)) return this.#borrow(task);
    }
    const pool = this.#pool(name);
    return new Promise((resolve) => {
      pool.waiting.push({ task, resolve });
      this.#next(pool);
    });
  }

  /** Hands waiting tasks to free threads. */
  #next(pool: Pool): void {
    while (!this.#stopped && pool.running.size < pool.threads) {
      const w = pool.waiting.shift();
      if (!w) return;
      const p = pool.piscina
        .run(w.task, { name: 'outcome' })
        .catch((err: unknown): PoolOutcome => {
          // the pool itself failed (a thread died): not the provider's reason, but still an answer
          return { ok: false, code: 'pool_failed', message: (err as Error).message };
        })
        .finally(() => {
          pool.running.delete(p);
          this.#next(pool);
          this.#idle(pool);
        });
      pool.running.add(p);
      void p.then(w.resolve);
    }
  }

  #mayBorrow(task: EmbedTask): boolean {
    return (
      !this.#pools.has('bulk') &&
      this.#pools.has('query') &&
      this.#borrowed === 0 &&
      task.texts.length <= BORROW_MAX_TEXTS &&
      this.#querySettings === JSON.stringify(task.settings)
    );
  }

  /** A small bulk task on the query thread, while the bulk threads are released. */
  async #borrow(task: EmbedTask): Promise<PoolOutcome> {
    this.#borrowed++;
    try {
      return await this.run('query', task);
    } finally {
      this.#borrowed--;
    }
  }

  /** The bulk pool has nothing to do: its threads end after releaseAfterMs unless work comes first. */
  #idle(pool: Pool): void {
    if (this.#stopped || this.#releaseAfterMs === 0 || pool !== this.#pools.get('bulk')) return;
    if (pool.running.size > 0 || pool.waiting.length > 0) return;
    this.#cancelRelease();
    this.#releaseTimer = this.#clock.setTimeout(() => this.#release(), this.#releaseAfterMs);
  }

  #cancelRelease(): void {
    if (this.#releaseTimer) this.#clock.clearTimeout(this.#releaseTimer);
    this.#releaseTimer = null;
  }

  /** Ends the idle bulk threads (no task is inside one: ending a thread inside onnxruntime aborts the process). */
  #release(): void {
    this.#releaseTimer = null;
    const pool = this.#pools.get('bulk');
    if (!pool || pool.running.size > 0 || pool.waiting.length > 0) return;
    this.#pools.delete('bulk'); // the next bulk task starts a new pool
    this.releases++;
    const done: Promise<void> = pool.piscina.destroy().catch(() => {});
    this.#releasing.add(done);
    void done.finally(() => this.#releasing.delete(done));
  }

  /** A port for one actor incarnation; `close` when that incarnation exits. */
  channel(): { port: MessagePort; close: () => void } {
    const { port1, port2 } = new MessageChannel();
    servePools({ run: (name, task) => this.run(name, task) }, port1);
    this.#ports.add(port1);
    return {
      port: port2,
      close: () => {
        this.#ports.delete(port1);
        port1.close();
      },
    };
  }

  /**
   * After the actors have stopped. Waiting tasks are answered `pool_stopped`; a task inside a thread (a model still
   * loading when the daemon stops within its first second, a batch) is let finish, since ending a thread inside
   * onnxruntime aborts the whole process; then the threads go.
   */
  async destroy(): Promise<void> {
    this.#stopped = true;
    this.#cancelRelease();
    for (const p of this.#ports) p.close();
    this.#ports.clear();
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    for (const p of pools) for (const w of p.waiting.splice(0)) w.resolve(stopped());
    const running = pools.flatMap((p) => [...p.running]);
    await Promise.race([Promise.allSettled(running), new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
    await Promise.all([...pools.map((p) => p.piscina.destroy().catch(() => {})), this.released()]);
  }
}

function stopped(): PoolOutcome {
  return { ok: false, code: 'pool_stopped', message: 'the embedding pools are shutting down' };
}
