// Main-thread side of an actor: a durable mailbox with acked, at-least-once delivery to whichever worker incarnation is live.
import { Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { assertNever, toWireError, type WireError } from '../../messages/common.js';
import type { ActorEvent, ActorFault, HostToWorker, WorkerMetrics, WorkerToHost } from '../../messages/actor.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { Backoff, Child, ChildExit, ChildSpec, RestartPolicy } from '../spec.js';
import { ActorRequestError, requestFailure } from './errors.js';
import { Mailbox, type Envelope, type PendingRequest } from './mailbox.js';

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
}

/** Creates the handle; no worker runs until `attach` (normally called by the supervisor through `childSpec`). */
export function spawnActor<In, Out>(opts: SpawnActorOpts<Out>): ActorHandle<In> {
  return new ActorHost<In, Out>(opts);
}

class ActorHost<In, Out> implements ActorHandle<In> {
  readonly id: string;
  #opts: SpawnActorOpts<Out>;
  #clock: Clock;
  #emit: (e: ActorEvent) => void;
  #mailbox: Mailbox<In>;
  #live: Incarnation | undefined;
  /** A prewarmed worker: modules loaded, waiting for attach to run its init. */
  #warm: Incarnation | undefined;
  #refused = false; // a send was refused since the mailbox was last below its limit
  #idleWaiters: Array<() => void> = [];
  #drainWaiters: Array<() => void> = [];
  #metricsSeq = 0;
  #watchdog: { timer: TimerHandle; due: number } | undefined;

  constructor(opts: SpawnActorOpts<Out>) {
    const window = opts.window ?? 8;
    const maxMailbox = opts.maxMailbox ?? 10_000;
    const maxAttempts = opts.maxAttempts ?? 3;
    if (!Number.isInteger(window) || window < 1) throw new TypeError(`actor ${opts.id}: window must be a positive integer`);
    if (!(maxMailbox >= 1)) throw new TypeError(`actor ${opts.id}: maxMailbox must be at least 1`);
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError(`actor ${opts.id}: maxAttempts must be a positive integer`);
    if (opts.stallMs !== undefined && !(opts.stallMs > 0)) throw new TypeError(`actor ${opts.id}: stallMs must be a positive number`);
    this.id = opts.id;
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#emit = opts.events ?? (() => {});
    this.#mailbox = new Mailbox<In>(window, maxMailbox, maxAttempts);
  }

  send(msg: In): boolean {
    if (!this.#mailbox.push(msg)) {
      this.#refuse();
      return false;
    }
    this.#pump();
    return true;
  }

  request<R>(msg: In, timeoutMs: number | null): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let timer: TimerHandle | undefined;
      const pending: PendingRequest = {
        settled: false,
        replied: false,
        resolve: (v) => {
          if (timer) this.#clock.clearTimeout(timer);
          resolve(v as R);
        },
        reject: (e) => {
          if (timer) this.#clock.clearTimeout(timer);
          reject(e);
        },
      };
      const env = this.#mailbox.push(msg, pending);
      if (!env) {
        this.#refuse();
        reject(new ActorRequestError('mailbox_full', `actor ${this.id}: mailbox full (${this.depth()} messages)`));
        return;
      }
      if (timeoutMs !== null)
        timer = this.#clock.setTimeout(() => {
          timer = undefined;
          if (pending.settled) return;
          pending.settled = true;
          // Not yet posted: take it back. Already with the worker: let it finish, ignore its reply.
          if (this.#mailbox.withdraw(env)) this.#afterRemove();
          reject(new ActorRequestError('timeout', `actor ${this.id}: no reply within ${timeoutMs} ms`));
        }, timeoutMs);
      this.#pump();
    });
  }

  depth(): number {
    return this.#mailbox.depth();
  }

  onIdle(): Promise<void> {
    if (this.depth() === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  onDrain(): Promise<void> {
    if (!this.#mailbox.full()) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  childSpec(opts: { restart?: RestartPolicy; shutdownMs: number; backoff?: Backoff }): ChildSpec {
    const spec: ChildSpec = {
      id: this.id,
      start: (ctx) => this.attach({ shutdownMs: ctx.shutdownMs }),
      restart: opts.restart ?? 'permanent',
      shutdownMs: opts.shutdownMs,
    };
    if (opts.backoff) spec.backoff = opts.backoff;
    return spec;
  }

  prewarm(): void {
    if (this.#live || this.#warm) return;
    const inc = this.#spawn();
    inc.worker.unref(); // a parked worker never keeps the process alive; attach refs it
    this.#warm = inc;
  }

  discardWarm(): Promise<void> {
    const inc = this.#warm;
    this.#warm = undefined;
    return inc ? inc.worker.terminate().then(() => {}) : Promise.resolve();
  }

  attach(opts: { shutdownMs: number }): Promise<Child> {
    if (this.#live) throw new Error(`actor ${this.id}: attach while an incarnation is still live`);
    // a prewarmed worker that died while parked (e.g. a module failed to load) is replaced: the new one reports why
    const inc = this.#warm && !this.#warm.parkedExit ? this.#warm : this.#spawn();
    this.#warm = undefined;
    inc.worker.ref();
    inc.attached = true;
    inc.shutdownMs = opts.shutdownMs;
    this.#live = inc;
    inc.post({ type: 'actor.init' });
    return inc.ready;
  }

  /** A new worker thread; it loads its modules and waits for `actor.init` (see attach). */
  #spawn(): Incarnation {
    const inc = new Incarnation(this.#opts, this.#clock);
    inc.worker.on('message', (m: WorkerToHost<Out>) => this.#onWorkerMessage(inc, m));
    inc.worker.on('error', (err) => {
      inc.error ??= toWireError(err, 'worker_error');
    });
    inc.worker.on('exit', (code) => {
      if (inc.attached) return this.#onWorkerExit(inc, code);
      // exited while parked, never attached: nothing was delivered to it, so there is nothing to requeue
      inc.parkedExit = true;
      if (this.#warm === inc) this.#warm = undefined;
    });
    return inc;
  }

  metrics(timeoutMs: number): Promise<WorkerMetrics> {
    const inc = this.#live;
    if (!inc?.isReady) {
      return Promise.reject(new ActorRequestError('not_running', `actor ${this.id}: no live worker to report metrics`));
    }
    const id = ++this.#metricsSeq;
    return new Promise<WorkerMetrics>((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => {
        inc.metricsWaiters.delete(id);
        reject(new ActorRequestError('timeout', `actor ${this.id}: no metrics within ${timeoutMs} ms`));
      }, timeoutMs);
      inc.metricsWaiters.set(id, {
        resolve: (m) => {
          this.#clock.clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          this.#clock.clearTimeout(timer);
          reject(e);
        },
      });
      inc.post({ type: 'actor.metrics', id });
    });
  }

  async crash(reason: string): Promise<void> {
    const inc = this.#live;
    if (!inc) return;
    inc.error ??= { kind: 'injected_fault', message: reason };
    await inc.worker.terminate();
  }

  fault(kind: ActorFault): void {
    const inc = this.#live;
    if (!inc?.isReady) throw new ActorRequestError('not_running', `actor ${this.id}: no live worker to inject a fault into`);
    inc.post({ type: 'actor.fault', fault: kind });
  }

  /** Keeps one timer at the moment the oldest in-flight message would count as stalled; none when nothing is in flight. */
  #armWatchdog(): void {
    const stallMs = this.#opts.stallMs;
    if (stallMs === undefined) return;
    const oldest = this.#live?.isReady ? this.#mailbox.oldestActiveSince() : undefined;
    const due = oldest === undefined ? undefined : oldest + stallMs;
    if (this.#watchdog && this.#watchdog.due === due) return;
    if (this.#watchdog) this.#clock.clearTimeout(this.#watchdog.timer);
    this.#watchdog = undefined;
    if (due === undefined) return;
    const timer = this.#clock.setTimeout(
      () => {
        this.#watchdog = undefined;
        const inc = this.#live;
        const since = this.#mailbox.oldestActiveSince();
        if (inc && since !== undefined && this.#clock.now() - since >= stallMs && !inc.error) {
          const ms = Math.round(this.#clock.now() - since);
          inc.error = { kind: 'stalled', message: `actor ${this.id}: no ack for ${ms} ms (stallMs ${stallMs}); worker terminated` };
          this.#emit({
            type: 'actor.log',
            actor: this.id,
            level: 'error',
            msg: 'actor stalled: terminating the worker',
            fields: { event: 'actor_stalled', stall_ms: stallMs, waited_ms: ms },
          });
          void inc.worker.terminate();
          return;
        }
        this.#armWatchdog();
      },
      Math.max(0, due - this.#clock.now()),
    );
    this.#watchdog = { timer, due };
  }

  #onWorkerMessage(inc: Incarnation, m: WorkerToHost<Out>): void {
    switch (m.type) {
      case 'actor.ready': {
        inc.isReady = true;
        inc.resolveReady();
        this.#pump();
        return;
      }
      case 'actor.ack': {
        const env = this.#mailbox.ack(m.seq);
        if (!env) return;
        this.#mailbox.touchInflight(this.#clock.now()); // the stall clock counts from the worker's last sign of life
        const req = env.request;
        if (req && !req.settled) {
          req.settled = true;
          req.reject(new ActorRequestError('no_reply', `actor ${this.id}: handler finished without ctx.reply`));
        }
        this.#afterRemove();
        this.#pump();
        this.#armWatchdog();
        return;
      }
      case 'actor.progress': {
        this.#mailbox.touchInflight(this.#clock.now());
        this.#armWatchdog();
        return;
      }
      case 'actor.reply': {
        const req = this.#mailbox.inflight(m.seq)?.request;
        if (req && !req.settled) {
          req.settled = true;
          req.resolve(m.value);
        }
        return;
      }
      case 'actor.emit':
        this.#opts.onMessage(m.msg, this.id);
        return;
      case 'actor.request': {
        const ask =
          this.#opts.onRequest ??
          (() => Promise.reject(new ActorRequestError('not_running', `actor ${this.id}: its host routes no requests`)));
        // the answer goes to the incarnation that asked; if it died meanwhile, nobody is waiting for it
        ask(m.msg, this.id, m.timeoutMs).then(
          (value) => inc.isReady && this.#live === inc && inc.post({ type: 'actor.response', id: m.id, ok: true, value }),
          (err: unknown) =>
            inc.isReady && this.#live === inc && inc.post({ type: 'actor.response', id: m.id, ok: false, error: requestFailure(err) }),
        );
        return;
      }
      case 'actor.metrics_result': {
        const w = inc.metricsWaiters.get(m.id);
        inc.metricsWaiters.delete(m.id);
        w?.resolve(m.metrics);
        return;
      }
      case 'actor.log': {
        const e: ActorEvent = { type: 'actor.log', actor: this.id, level: m.level, msg: m.msg };
        if (m.fields) e.fields = m.fields;
        this.#emit(e);
        return;
      }
      default:
        assertNever(m);
    }
  }

  #onWorkerExit(inc: Incarnation, code: number): void {
    const exit: ChildExit = inc.terminated
      ? { kind: 'killed' }
      : inc.error
        ? { kind: 'crash', error: inc.error }
        : code === 0
          ? { kind: 'normal' }
          : { kind: 'crash', error: { kind: 'exit_code', message: `worker exited with code ${code}` } };
    if (this.#live === inc) this.#live = undefined;
    this.#armWatchdog(); // nothing is in flight with no live worker: clears it

    const { poisoned, redelivered } = this.#mailbox.requeue(exit.kind === 'crash');
    if (poisoned && exit.kind === 'crash') this.#dropPoison(poisoned, exit.error);
    if (redelivered > 0) this.#emit({ type: 'actor.redelivered', actor: this.id, count: redelivered });

    for (const w of inc.metricsWaiters.values()) {
      w.reject(new ActorRequestError('not_running', `actor ${this.id}: worker exited before reporting metrics`));
    }
    inc.metricsWaiters.clear();
    if (!inc.isReady) {
      const why = exit.kind === 'crash' ? `${exit.error.kind}: ${exit.error.message}` : exit.kind;
      inc.rejectReady(Object.assign(new Error(`actor ${this.id}: worker exited during init (${why})`), { code: 'init_failed' }));
    }
    inc.finish(exit);
  }

  #dropPoison(env: Envelope<In>, error: WireError): void {
    this.#emit({ type: 'actor.poison', actor: this.id, seq: env.seq, attempts: env.crashes, msg: env.msg, error });
    const req = env.request;
    if (req && !req.settled) {
      req.settled = true;
      req.reject(new ActorRequestError('poison', `actor ${this.id}: message crashed the worker ${env.crashes} times`));
    }
    this.#afterRemove();
  }

  /** Posts queued messages to the live worker while the in-flight window has room. */
  #pump(): void {
    const inc = this.#live;
    if (!inc?.isReady || inc.stopping) return;
    for (let env = this.#mailbox.takeNext(); env; env = this.#mailbox.takeNext()) {
      const m: HostToWorker<In> = {
        type: 'actor.deliver',
        seq: env.seq,
        attempt: env.attempts,
        request: env.request !== undefined,
        msg: env.msg,
      };
      env.activeSince = this.#clock.now();
      try {
        inc.worker.postMessage(m);
      } catch (err) {
        // Only a message that cannot be structured-cloned fails here; it never will, so drop it loudly.
        this.#mailbox.discardInflight(env);
        const error = toWireError(err, 'undeliverable');
        this.#emit({ type: 'actor.undeliverable', actor: this.id, seq: env.seq, error });
        const req = env.request;
        if (req && !req.settled) {
          req.settled = true;
          req.reject(new ActorRequestError('undeliverable', `actor ${this.id}: ${error.message}`));
        }
        this.#afterRemove();
      }
    }
    this.#armWatchdog();
  }

  #refuse(): void {
    this.#refused = true;
    this.#emit({ type: 'actor.mailbox_full', actor: this.id, depth: this.depth() });
  }

  /** A message left the mailbox: wake drain and idle waiters. */
  #afterRemove(): void {
    if (!this.#mailbox.full()) {
      if (this.#refused) {
        this.#refused = false;
        this.#emit({ type: 'actor.drained', actor: this.id, depth: this.depth() });
      }
      const drain = this.#drainWaiters;
      this.#drainWaiters = [];
      for (const w of drain) w();
    }
    if (this.depth() === 0) {
      const idle = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const w of idle) w();
    }
  }
}

/** One worker thread running the actor; the supervisor sees it as a Child. */
class Incarnation implements Child {
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

  post(m: HostToWorker): void {
    this.worker.postMessage(m);
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
