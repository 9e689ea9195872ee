// Main-thread side of an actor: a durable mailbox with acked, at-least-once delivery to whichever worker incarnation is live.
// The handle's contract is in actor-handle.ts, one worker thread in incarnation.ts, the stall timer in stall-watchdog.ts,
// the full/drained/idle signals in backpressure.ts.
import { assertNever, toWireError, type WireError } from '../../messages/common.js';
import type { ActorEvent, ActorFault, HostToWorker, WorkerMetrics, WorkerToHost } from '../../messages/actor.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { Backoff, Child, ChildExit, ChildSpec, RestartPolicy } from '../spec.js';
import type { ActorHandle, PeerPort, SpawnActorOpts } from './actor-handle.js';
import { Backpressure } from './backpressure.js';
import { ActorRequestError, requestFailure } from './errors.js';
import { Incarnation } from './incarnation.js';
import { Mailbox, settle, type Envelope, type PendingRequest } from './mailbox.js';
import { StallWatchdog } from './stall-watchdog.js';

export type { ActorHandle, SpawnActorOpts } from './actor-handle.js';

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
  #pressure: Backpressure;
  #metricsSeq = 0;
  #watchdog: StallWatchdog;
  /** Peers' requests the live worker is handling (runtime/peers.ts), by its id: when each last showed life. */
  readonly #direct = new Map<number, number>();

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
    this.#watchdog = new StallWatchdog(this.#clock, () => this.#onStallTimer());
    this.#mailbox = new Mailbox<In>(window, maxMailbox, maxAttempts);
    this.#pressure = new Backpressure(
      this.id,
      () => this.#mailbox.depth(),
      () => this.#mailbox.full(),
      (e) => this.#emit(e),
    );
  }

  send(msg: In): boolean {
    if (!this.#mailbox.push(msg)) {
      this.#pressure.refused();
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
        this.#pressure.refused();
        reject(new ActorRequestError('mailbox_full', `actor ${this.id}: mailbox full (${this.depth()} messages)`));
        return;
      }
      if (timeoutMs !== null)
        timer = this.#clock.setTimeout(() => {
          timer = undefined;
          if (pending.settled) return;
          pending.settled = true;
          // Not yet posted: take it back. Already with the worker: let it finish, ignore its reply.
          if (this.#mailbox.withdraw(env)) this.#pressure.removed();
          reject(new ActorRequestError('timeout', `actor ${this.id}: no reply within ${timeoutMs} ms`));
        }, timeoutMs);
      this.#pump();
    });
  }

  depth(): number {
    return this.#mailbox.depth();
  }

  onIdle(): Promise<void> {
    return this.#pressure.onIdle();
  }

  onDrain(): Promise<void> {
    return this.#pressure.onDrain();
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
    return inc.askMetrics(this.id, ++this.#metricsSeq, timeoutMs);
  }

  async crash(reason: string): Promise<void> {
    const inc = this.#live;
    if (!inc) return;
    inc.error ??= { kind: 'injected_fault', message: reason };
    await inc.worker.terminate();
  }

  peer(link: PeerPort): boolean {
    const inc = this.#live;
    if (!inc?.isReady || inc.stopping) return false;
    inc.post({ type: 'actor.peer', ...link }, [link.port]);
    return true;
  }

  fault(kind: ActorFault): void {
    const inc = this.#live;
    if (!inc?.isReady) throw new ActorRequestError('not_running', `actor ${this.id}: no live worker to inject a fault into`);
    inc.post({ type: 'actor.fault', fault: kind });
  }

  /** Keeps the watchdog due when the oldest in-flight message would count as stalled; off when nothing is in flight. */
  #armWatchdog(): void {
    const stallMs = this.#opts.stallMs;
    if (stallMs === undefined) return;
    const oldest = this.#live?.isReady ? this.#oldestActive() : undefined;
    this.#watchdog.set(oldest === undefined ? undefined : oldest + stallMs);
  }

  /** The watchdog's timer fired: a worker silent for stallMs with a message in flight is terminated as crashed. */
  #onStallTimer(): void {
    const stallMs = this.#opts.stallMs!;
    const inc = this.#live;
    const since = this.#oldestActive();
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
  }

  /** The oldest sign of life of what the worker holds: mailbox messages in flight and peers' requests it runs. */
  #oldestActive(): number | undefined {
    const mail = this.#mailbox.oldestActiveSince();
    if (this.#direct.size === 0) return mail;
    const direct = Math.min(...this.#direct.values());
    return mail === undefined ? direct : Math.min(mail, direct);
  }

  /** The worker showed life: every stall clock starts again (as the mailbox's touchInflight). */
  #touch(): void {
    const now = this.#clock.now();
    this.#mailbox.touchInflight(now);
    for (const id of this.#direct.keys()) this.#direct.set(id, now);
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
        this.#touch(); // the stall clock counts from the worker's last sign of life
        settle(env.request, { error: new ActorRequestError('no_reply', `actor ${this.id}: handler finished without ctx.reply`) });
        this.#pressure.removed();
        this.#pump();
        this.#armWatchdog();
        return;
      }
      case 'actor.direct': {
        if (inc !== this.#live) return;
        if (m.done) {
          this.#direct.delete(m.id);
          this.#touch();
        } else {
          this.#direct.set(m.id, this.#clock.now());
          this.#opts.onDirect?.(m.msg as Out, this.id);
        }
        this.#armWatchdog();
        return;
      }
      case 'actor.progress': {
        this.#touch();
        this.#armWatchdog();
        return;
      }
      case 'actor.reply': {
        settle(this.#mailbox.inflight(m.seq)?.request, { value: m.value });
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
      case 'actor.metrics_result':
        inc.metricsAnswered(m.id, m.metrics);
        return;
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
    if (this.#live === inc) {
      this.#live = undefined;
      this.#direct.clear(); // its peers send what it had not answered through main (runtime/peers.ts)
    }
    this.#armWatchdog(); // nothing is in flight with no live worker: clears it

    const { poisoned, redelivered } = this.#mailbox.requeue(exit.kind === 'crash');
    if (poisoned && exit.kind === 'crash') this.#dropPoison(poisoned, exit.error);
    if (redelivered > 0) this.#emit({ type: 'actor.redelivered', actor: this.id, count: redelivered });

    inc.refuseMetrics(this.id);
    if (!inc.isReady) {
      const why = exit.kind === 'crash' ? `${exit.error.kind}: ${exit.error.message}` : exit.kind;
      // the code is the worker's own (EADDRINUSE for a gateway whose address is taken), so a caller can say what to do
      const code = exit.kind === 'crash' ? exit.error.kind : 'init_failed';
      inc.rejectReady(Object.assign(new Error(`actor ${this.id}: worker exited during init (${why})`), { code }));
    }
    inc.finish(exit);
  }

  #dropPoison(env: Envelope<In>, error: WireError): void {
    this.#emit({ type: 'actor.poison', actor: this.id, seq: env.seq, attempts: env.crashes, msg: env.msg, error });
    settle(env.request, { error: new ActorRequestError('poison', `actor ${this.id}: message crashed the worker ${env.crashes} times`) });
    this.#pressure.removed();
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
        settle(env.request, { error: new ActorRequestError('undeliverable', `actor ${this.id}: ${error.message}`) });
        this.#pressure.removed();
      }
    }
    this.#armWatchdog();
  }
}
