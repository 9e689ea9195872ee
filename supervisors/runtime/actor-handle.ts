// What an actor's host offers main: the options it is spawned with and the handle the router and supervisors use.
// Split from host.ts (the mailbox and delivery engine) so the contract reads on its own.
import type { MessagePort, ResourceLimits } from 'node:worker_threads';
import type { ActorEvent, ActorFault, WorkerMetrics } from '../../messages/actor.js';
import type { Clock } from '../clock.js';
import type { Backoff, Child, ChildSpec, RestartPolicy } from '../spec.js';

export interface SpawnActorOpts<Out> {
  id: string;
  /** The compiled worker module, e.g. `new URL('./worker.js', import.meta.url)`; it calls `runActor`. */
  file: URL;
  workerData?: unknown;
  /** `send` refuses messages once queued + in flight reaches this. Default 10 000. */
  maxMailbox?: number;
  /** Messages posted to the worker and not yet acked, at most. Default 8. */
  window?: number;
  /** A message is dropped as poison after crashing the worker this many times. Default 3. */
  maxAttempts?: number;
  /** Messages the worker emits; the caller routes them. */
  onMessage: (msg: Out, from: string) => void;
  /** A request a peer sent this worker straight over their port (runtime/peers.ts), as it starts: main's observers see it. */
  onDirect?: (msg: Out, to: string) => void;
  /** Requests the worker makes (`ctx.request`); the caller routes them and the answer goes back to that worker. */
  onRequest?: (msg: Out, from: string, timeoutMs: number | null) => Promise<unknown>;
  events?: (e: ActorEvent) => void;
  resourceLimits?: ResourceLimits;
  /** For request timeouts, the shutdown deadline and the stall watchdog; tests pass a ManualClock. */
  clock?: Clock;
  /**
   * Stall watchdog, off when undefined: when the worker holds unacked messages and has shown no life for this long
   * (no ack, no `ctx.progress()` since the oldest was posted or since its last ack),
   * the worker is terminated as crashed (error kind `stalled`), so its supervisor restarts it and the message is
   * redelivered (and dropped as poison after maxAttempts stalls).
   */
  stallMs?: number;
  /**
   * A fresh MessagePort for each worker incarnation, handed to it as `workerData.port` (workerData must then be an
   * object), e.g. main's embedding pools; `close` runs when that incarnation exits.
   */
  channel?: () => { port: MessagePort; close: () => void };
}

/** A port straight to another actor's worker, and the request types that may cross it each way (runtime/peers.ts). */
export interface PeerPort {
  /** The actor at the other end. */
  name: string;
  port: MessagePort;
  /** Request types this actor may ask over the port. */
  asks: string[];
  /** Request types this actor answers on it. */
  answers: string[];
}

export interface ActorHandle<In> {
  readonly id: string;
  /**
   * Enqueues `msg`; it survives worker restarts and is delivered at least once. False when the mailbox is full:
   * the message was NOT taken; wait for `onDrain()` and send again.
   */
  send(msg: In): boolean;
  /**
   * Sends through the mailbox, in order; the handler answers with `ctx.reply`. Rejects with ActorRequestError.
   * `timeoutMs` null waits as long as it takes (the message survives restarts like any other).
   */
  request<R>(msg: In, timeoutMs: number | null): Promise<R>;
  /** Queued plus in flight (posted, not yet acked). */
  depth(): number;
  /** Resolves when every message has been acked (at once if none is pending). */
  onIdle(): Promise<void>;
  /** Resolves when `send` would accept a message again. */
  onDrain(): Promise<void>;
  /**
   * Starts a worker thread now that loads its modules and then waits: the next `attach` uses it and pays only the
   * actor's init. The daemon prewarms every actor at once, so threads load in parallel while the supervisors still
   * start (init) them one after another, in their order. No-op while an incarnation is live or warm.
   */
  prewarm(): void;
  /** Ends a prewarmed worker that was never attached (a start that failed part-way, a stop). */
  discardWarm(): Promise<void>;
  /** Starts a new worker incarnation on this mailbox (the prewarmed one, if any); resolves when its init finished. Use as a ChildSpec's start. */
  attach(opts: { shutdownMs: number }): Promise<Child>;
  /** A ChildSpec that restarts this actor's worker on the same mailbox. */
  childSpec(opts: { restart?: RestartPolicy; shutdownMs: number; backoff?: Backoff }): ChildSpec;
  /**
   * The live worker's prom-client registry as JSON, asked out of band (not through the mailbox). A worker is one
   * thread: it answers between messages, or while a handler awaits; a handler that blocks the thread delays it.
   */
  metrics(timeoutMs: number): Promise<WorkerMetrics>;
  /**
   * Fault injection (tests, chaos runs): terminates the live worker abruptly, as a crash would; the supervisor
   * restarts it and unacked messages are redelivered. Resolves once the worker is gone.
   */
  crash(reason: string): Promise<void>;
  /**
   * Fault injection from inside the worker, posted out of band: `throw` makes the next handled message throw,
   * `exit` exits the thread with code 3, `hang` blocks the thread for good. Throws ActorRequestError
   * `not_running` when no ready worker is live.
   */
  fault(kind: ActorFault): void;
  /**
   * Hands the live worker a port straight to another actor's worker (out of band); false when no ready worker is live
   * (the caller closes the port). A port already held for that actor is closed: what it had not answered goes through main.
   */
  peer(link: PeerPort): boolean;
}
