// The daemon's embedding thread pools, owned by main so they outlive embedder and gateway restarts: killing an
// actor never kills a thread inside onnxruntime (which would abort the process), and a restarted embedder finds
// its models loaded. Each actor incarnation gets a fresh MessagePort to them (see actors/embedder/pool-api.ts).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EmbedTask, PoolOutcome } from '../actors/embedder/pool-task.js';
import { servePools, type PoolName } from '../actors/embedder/pool-api.js';

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

export class EmbedPools {
  readonly #pools = new Map<PoolName, Piscina<EmbedTask, PoolOutcome>>();
  readonly #ports = new Set<MessagePort>();

  constructor(readonly bulkThreads: number) {}

  #pool(name: PoolName): Piscina<EmbedTask, PoolOutcome> {
    let p = this.#pools.get(name);
    if (!p) {
      const bulk = name === 'bulk';
      const threads = bulk ? this.bulkThreads : 1;
      p = new Piscina<EmbedTask, PoolOutcome>({
        filename: new URL('../actors/embedder/pool-task.js', import.meta.url).href,
        minThreads: bulk ? 0 : threads,
        maxThreads: threads,
        idleTimeout: bulk ? BULK_IDLE_MS : Infinity,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
      });
      this.#pools.set(name, p);
    }
    return p;
  }

  async run(name: PoolName, task: EmbedTask): Promise<PoolOutcome> {
    try {
      return await this.#pool(name).run(task, { name: 'outcome' });
    } catch (err) {
      // the pool itself failed (a thread died): not the provider's reason, but still an answer
      return { ok: false, code: 'pool_failed', message: (err as Error).message };
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

  /** After the actors have stopped: no task is running, so the threads can go. */
  async destroy(): Promise<void> {
    for (const p of this.#ports) p.close();
    this.#ports.clear();
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }
}
