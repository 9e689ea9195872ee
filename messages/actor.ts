// Protocol between an actor's host (main thread) and its worker thread, and the host's events for logs and metrics.
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { MessagePort } from 'node:worker_threads';
import type { WireError } from './common.js';

/** One worker thread's prom-client registry, as `register.getMetricsAsJSON()` returns it; merge with `AggregatorRegistry.aggregate`. */
export type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Injected faults (tests, chaos runs): throw in the next handler, exit the thread, or block it for good. */
export type ActorFault = 'throw' | 'exit' | 'hang';

export type HostToWorker<In = unknown> =
  /**
   * Run `init` now. The host posts it when the supervisor starts this incarnation; a prewarmed worker has loaded its
   * modules meanwhile and waits for it, so its start costs only its init.
   */
  | { type: 'actor.init' }
  /** A mailbox message; `attempt` > 1 means a previous incarnation may have handled it already. */
  | { type: 'actor.deliver'; seq: number; attempt: number; request: boolean; msg: In }
  /** Out of band, not through the mailbox: answered whenever the worker's event loop is free. */
  | { type: 'actor.metrics'; id: number }
  /** Out of band: fault injection, acted on as soon as the worker's event loop sees it. */
  | { type: 'actor.fault'; fault: ActorFault }
  /** The answer to the worker's `ctx.request` number `id` (from the actor it asked, through the host and main). */
  | { type: 'actor.response'; id: number; ok: true; value: unknown }
  | { type: 'actor.response'; id: number; ok: false; error: WireError }
  /** Finish the current message, ack it, exit 0. */
  | { type: 'actor.stop'; reason: string }
  /**
   * Out of band: a port straight to the worker of actor `name` (made by main for that pair, new whenever either
   * incarnation starts): the request types this worker may ask over it, and those it answers on it (runtime/peers.ts).
   */
  | { type: 'actor.peer'; name: string; port: MessagePort; asks: string[]; answers: string[] };

export type WorkerToHost<Out = unknown> =
  | { type: 'actor.ready' }
  | { type: 'actor.ack'; seq: number }
  /** The handler of `seq` is alive and still working on it (e.g. retrying a write): restarts the host's stall clock. */
  | { type: 'actor.progress'; seq: number }
  | { type: 'actor.reply'; seq: number; value: unknown }
  /**
   * A peer's request `id` started (with the request, for main's observers) or finished: the host's stall watchdog
   * counts it like a delivery.
   */
  | { type: 'actor.direct'; id: number; done: false; msg: unknown }
  | { type: 'actor.direct'; id: number; done: true }
  | { type: 'actor.emit'; msg: Out }
  /** The worker asks another actor (or main) and awaits the answer; null timeout: wait as long as it takes. */
  | { type: 'actor.request'; id: number; msg: Out; timeoutMs: number | null }
  | { type: 'actor.metrics_result'; id: number; metrics: WorkerMetrics }
  | { type: 'actor.log'; level: LogLevel; msg: string; fields?: Record<string, unknown> };

/** What an actor host reports; the caller logs it and counts it. */
export type ActorEvent =
  /** A message crashed the worker `attempts` times and was dropped so the actor can serve the rest. */
  | { type: 'actor.poison'; actor: string; seq: number; attempts: number; msg: unknown; error: WireError }
  /** A message that cannot be structured-cloned to the worker: a bug in the sender; dropped. */
  | { type: 'actor.undeliverable'; actor: string; seq: number; error: WireError }
  /** A new incarnation is being handed the messages its predecessor did not ack. */
  | { type: 'actor.redelivered'; actor: string; count: number }
  /** `send` refused a message: the mailbox held `maxMailbox` messages. */
  | { type: 'actor.mailbox_full'; actor: string; depth: number }
  /** The mailbox fell back below `maxMailbox` after refusing a message. */
  | { type: 'actor.drained'; actor: string; depth: number }
  | { type: 'actor.log'; actor: string; level: LogLevel; msg: string; fields?: Record<string, unknown> };
