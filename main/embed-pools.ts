// The daemon's embedding thread pools, owned by main so they outlive embedder and gateway restarts: killing an
// actor never kills a thread inside onnxruntime (which would abort the process), and a restarted embedder finds
// its models loaded. Each actor incarnation gets a fresh MessagePort to them (see actors/embedder/pool-api.ts).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EmbedTask, PoolOutcome } from '../actors/embedder/pool-task.js';
import { servePools, type PoolName } from '../actors/embedder/pool-api.js';
import { entry } from '../supervisors/runtime/code-files.js';

/** How long destroy waits for the tasks inside the threads before it ends them anyway. */
const DRAIN_MS = 30_000;
/**
 * Young generation (MiB) of each pool thread's V8 heap: V8 lets it grow to 3 × 16 MiB per thread under allocation;
 * capped, the daemon's threads together hold ~27 MB less after indexing, for the same CPU time.
 */
export const WORKER_YOUNG_MB = 8;
/**
 * The bulk pool's threads, each with its model session (~90 MB), end after this long without work and start again
 * (~0.5 s: the model file is cached) with the next; the query pool's one thread stays, so searches never wait for it.
 */
const BULK_IDLE_MS = 60_000;

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
  #stopped = false;

  /** `bulkNice`: the bulk threads' niceness (Linux), so a backlog being embedded yields the CPU to searches and writes. */
  constructor(
    readonly bulkThreads: number,
    readonly bulkNice = 0,
  ) {}

  #pool(name: PoolName): Pool {
    let p = this.#pools.get(name);
    if (!p) {
      const bulk = name === 'bulk';
      const threads = bulk ? this.bulkThreads : 1;
      const piscina = new Piscina<EmbedTask, PoolOutcome>({
        filename: entry('actors/embedder/pool-task.js').href,
        minThreads: bulk ? 0 : threads,
        maxThreads: threads,
        idleTimeout: bulk ? BULK_IDLE_MS : Infinity,
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
        });
      pool.running.add(p);
      void p.then(w.resolve);
    }
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
    for (const p of this.#ports) p.close();
    this.#ports.clear();
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    for (const p of pools) for (const w of p.waiting.splice(0)) w.resolve(stopped());
    const running = pools.flatMap((p) => [...p.running]);
    await Promise.race([Promise.allSettled(running), new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
    await Promise.all(pools.map((p) => p.piscina.destroy().catch(() => {})));
  }
}

function stopped(): PoolOutcome {
  return { ok: false, code: 'pool_stopped', message: 'the embedding pools are shutting down' };
}
