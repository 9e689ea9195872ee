// The daemon's embedding thread pools, owned by main so they outlive embedder and gateway restarts: killing an
// actor never kills a thread inside onnxruntime (which would abort the process), and a restarted embedder finds
// its models loaded. Each actor incarnation gets a fresh MessagePort to them (see actors/embedder/pool-api.ts).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EmbedTask, PoolOutcome } from '../actors/embedder/pool-task.js';
import { servePools, type PoolName } from '../actors/embedder/pool-api.js';

export class EmbedPools {
  readonly #pools = new Map<PoolName, Piscina<EmbedTask, PoolOutcome>>();
  readonly #ports = new Set<MessagePort>();
  /** Tasks running or queued: destroy waits for them (a thread ended inside onnxruntime aborts the process). */
  readonly #running = new Set<Promise<unknown>>();

  constructor(readonly bulkThreads: number) {}

  #pool(name: PoolName): Piscina<EmbedTask, PoolOutcome> {
    let p = this.#pools.get(name);
    if (!p) {
      const threads = name === 'bulk' ? this.bulkThreads : 1;
      p = new Piscina<EmbedTask, PoolOutcome>({
        filename: new URL('../actors/embedder/pool-task.js', import.meta.url).href,
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: Infinity,
      });
      this.#pools.set(name, p);
    }
    return p;
  }

  async run(name: PoolName, task: EmbedTask): Promise<PoolOutcome> {
    const running = this.#pool(name).run(task, { name: 'outcome' });
    this.#running.add(running);
    try {
      return await running;
    } catch (err) {
      // the pool itself failed (a thread died): not the provider's reason, but still an answer
      return { ok: false, code: 'pool_failed', message: (err as Error).message };
    } finally {
      this.#running.delete(running);
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
   * After the actors have stopped. A task an actor started may still run (the memory actor's last batch, the
   * embedder's when the drain was cut short): it is let finish (a minute at most) before the threads go.
   */
  async destroy(): Promise<void> {
    for (const p of this.#ports) p.close();
    this.#ports.clear();
    const settle = Promise.allSettled([...this.#running]);
    await Promise.race([settle, new Promise((r) => setTimeout(r, 60_000).unref())]);
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }
}
