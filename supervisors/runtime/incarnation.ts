// One worker thread running an actor (what its supervisor sees as a Child), and the metrics requests asked of it out
// of band, each with its timeout. Split from host.ts, which keeps the mailbox and delivery across incarnations.
import { Worker, type Transferable } from 'node:worker_threads';
import type { WireError } from '../../messages/common.js';
import type { HostToWorker, WorkerMetrics } from '../../messages/actor.js';
import type { Clock } from '../clock.js';
import type { Child, ChildExit } from '../spec.js';
import type { SpawnActorOpts } from './actor-handle.js';
import { ActorRequestError } from './errors.js';

/** One worker thread running the actor; the supervisor sees it as a Child. */
export class Incarnation implements Child {
  readonly worker: Worker;
  readonly exited: Promise<ChildExit>;
  readonly ready: Promise<Child>;
  isReady = false;
  stopping = false;
  terminated = false;
  error: WireError | undefined;
  metricsWaiters = new Map<number, { resolve: (m: WorkerMetrics) => void; reject: (e: Error) => void }>();
  resolveReady!: () => void;
  rejectReady!: (err: Error) => void;
  #finish!: (exit: ChildExit) => void;
  #done = false;

  /** Set by attach (a prewarmed incarnation is created before its supervisor says how long it may take to stop). */
  shutdownMs = 0;
  attached = false;
  /** The worker exited before it was attached. */
  parkedExit = false;

  constructor(
    opts: Pick<SpawnActorOpts<unknown>, 'file' | 'workerData' | 'resourceLimits' | 'channel'>,
    readonly clock: Clock,
  ) {
    const ch = opts.channel?.();
    this.worker = new Worker(opts.file, {
      workerData: ch ? { ...(opts.workerData as object), port: ch.port } : opts.workerData,
      ...(ch ? { transferList: [ch.port] } : {}),
      ...(opts.resourceLimits ? { resourceLimits: opts.resourceLimits } : {}),
    });
    this.exited = new Promise((resolve) => (this.#finish = resolve));
    if (ch) void this.exited.then(() => ch.close());
    this.ready = new Promise<Child>((resolve, reject) => {
      this.resolveReady = () => resolve(this);
      this.rejectReady = reject;
    });
  }

  post(m: HostToWorker, transfer?: readonly Transferable[]): void {
    this.worker.postMessage(m, transfer);
  }

  /** Asks the worker for its registry as request `id`; rejects with `timeout` after `timeoutMs`. */
  askMetrics(actor: string, id: number, timeoutMs: number): Promise<WorkerMetrics> {
    return new Promise<WorkerMetrics>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.metricsWaiters.delete(id);
        reject(new ActorRequestError('timeout', `actor ${actor}: no metrics within ${timeoutMs} ms`));
      }, timeoutMs);
      this.metricsWaiters.set(id, {
        resolve: (m) => {
          this.clock.clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          this.clock.clearTimeout(timer);
          reject(e);
        },
      });
      this.post({ type: 'actor.metrics', id });
    });
  }

  /** The worker's answer to metrics request `id` (ignored once that request timed out). */
  metricsAnswered(id: number, metrics: WorkerMetrics): void {
    const w = this.metricsWaiters.get(id);
    this.metricsWaiters.delete(id);
    w?.resolve(metrics);
  }

  /** The worker exited: every metrics request still waiting is refused as `not_running`. */
  refuseMetrics(actor: string): void {
    for (const w of this.metricsWaiters.values()) {
      w.reject(new ActorRequestError('not_running', `actor ${actor}: worker exited before reporting metrics`));
    }
    this.metricsWaiters.clear();
  }

  finish(exit: ChildExit): void {
    this.#done = true;
    this.#finish(exit);
  }

  async stop(reason: string): Promise<void> {
    if (this.#done) return;
    if (!this.stopping) {
      this.stopping = true;
      this.post({ type: 'actor.stop', reason });
      // A handler that never yields cannot see actor.stop; the deadline is what ends it.
      const timer = this.clock.setTimeout(() => {
        this.terminated = true;
        void this.worker.terminate();
      }, this.shutdownMs);
      void this.exited.then(() => this.clock.clearTimeout(timer));
    }
    await this.exited;
  }
}
