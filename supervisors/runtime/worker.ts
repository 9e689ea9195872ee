// Worker-thread side of an actor: runs the handler on each delivered message, in order, and acks each when it is done.
import { parentPort } from 'node:worker_threads';
import { register, type Registry } from 'prom-client';
import { assertNever } from '../../messages/common.js';
import type { ActorFault, HostToWorker, LogLevel, WorkerToHost } from '../../messages/actor.js';
import type { Replies, RequestType } from '../../messages/index.js';
import { ActorRequestError, type ActorRequestFailure } from './errors.js';
import { Peers, type DirectRequest } from './peers.js';
import { threadDefaultMetrics } from './thread-metrics.js';

export type ActorLog = Record<LogLevel, (msg: string, fields?: Record<string, unknown>) => void>;

/** A request an actor may make: a message whose type has an answer in `Replies`. */
export type Ask = { type: RequestType };

/** What `init` gets: enough to talk to the host before (and outside) any message, e.g. from a server callback. */
export interface InitCtx<Out, A extends Ask = never> {
  /** Sends a message to the host, which routes it. */
  emit(msg: Out): void;
  /**
   * Asks the actor the message is for (or main) and resolves with its `ctx.reply`; rejects with ActorRequestError
   * (timeout, poison, mailbox_full, …). `timeoutMs` null waits as long as it takes.
   */
  request<M extends A>(msg: M, timeoutMs: number | null): Promise<Replies[M['type']]>;
  /** Goes to the host as `actor.log` events. */
  log: ActorLog;
  /** This thread's prom-client registry: metrics registered here reach the host's `metrics()`. */
  metrics: Registry;
}

export interface ActorCtx<Out, State = undefined, A extends Ask = never> extends InitCtx<Out, A> {
  /** What `init` returned; the same object for every message of this incarnation. */
  readonly state: State;
  /** `attempt` > 1: an earlier incarnation got this message and died before acking it, so the handler must be idempotent. */
  readonly delivery: { seq: number; attempt: number };
  /** Answers the current message when it came from `request`; throws otherwise or on a second reply. */
  reply(value: unknown): void;
  /** Tells the host this message is still being worked on (a long retry), so its stall watchdog waits again. */
  progress(): void;
}

export type ActorHandler<In, Out, State, A extends Ask = never> = (msg: In, ctx: ActorCtx<Out, State, A>) => Promise<void> | void;

export interface RunActorOpts {
  /**
   * Messages handled at once. Default 1: strictly one at a time, in order. Above 1, handlers start in order but may
   * finish (and ack) out of order; the host's `window` must be at least this for it to matter.
   */
  concurrency?: number;
}

/**
 * Serves the host's mailbox on this worker thread. Call once, at the top level of the worker module.
 * A throw from `init` or the handler crashes the worker on purpose: the supervisor restarts it and the
 * unacked message is delivered again.
 */
export function runActor<In, Out, State = undefined, A extends Ask = never>(
  handler: ActorHandler<In, Out, State, A>,
  init?: (ctx: InitCtx<Out, A>) => Promise<State> | State,
  opts: RunActorOpts = {},
): void {
  const port = parentPort;
  if (!port) throw new Error('runActor must be called inside a worker thread (parentPort is null)');
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError('concurrency must be a positive integer');
  const post = (m: WorkerToHost<Out | A>): void => port.postMessage(m);
  const threadMetrics = threadDefaultMetrics(); // this thread's event-loop lag, heap and GC (labelled by main)
  const crash = (err: unknown): void => {
    // Rethrown outside any promise, so it is an uncaught exception whatever --unhandled-rejections says.
    process.nextTick(() => {
      throw crossable(err);
    });
  };

  const log = Object.fromEntries(
    (['debug', 'info', 'warn', 'error'] as const).map((level) => [
      level,
      (msg: string, fields?: Record<string, unknown>) =>
        post(fields ? { type: 'actor.log', level, msg, fields } : { type: 'actor.log', level, msg }),
    ]),
  ) as ActorLog;
  let nextRequest = 1;
  const asked = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const viaHost = (msg: A, timeoutMs: number | null): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextRequest++;
      asked.set(id, { resolve, reject });
      post({ type: 'actor.request', id, msg, timeoutMs });
    });
  // requests to an actor main connected this one to go over that port (peers.ts); the rest through main
  let nextDirect = 1;
  const peers = new Peers(
    (msg, timeoutMs) => viaHost(msg as A, timeoutMs),
    (r) => {
      if (stopping) return r.fail('reroute', 'the worker is stopping');
      queue.push({ direct: r, id: nextDirect++ });
      serve();
    },
  );
  const initCtx: InitCtx<Out, A> = {
    emit: (msg) => post({ type: 'actor.emit', msg }),
    request: <M extends A>(msg: M, timeoutMs: number | null) => peers.request(msg, timeoutMs) as Promise<Replies[M['type']]>,
    log,
    metrics: register,
  };

  type Deliver = Extract<HostToWorker<In>, { type: 'actor.deliver' }>;
  /** A peer's request (peers.ts): handled like a delivery, answered on its port, never acked to the host. */
  type Direct = { direct: DirectRequest; id: number };
  const queue: Array<Deliver | Direct> = [];
  let state: State | undefined;
  let ready = false;
  let running = 0;
  let stopping = false;
  let throwNext = false; // armed by an injected 'throw' fault

  async function handle(d: Deliver | Direct): Promise<void> {
    if (throwNext) {
      throwNext = false;
      throw new Error('injected fault: throw in handler'); // crashes while holding d, so d is redelivered
    }
    let replied = false;
    const direct = 'direct' in d ? d.direct : null;
    const seq = 'direct' in d ? 0 : d.seq;
    const ctx: ActorCtx<Out, State, A> = {
      ...initCtx,
      state: state as State,
      delivery: 'direct' in d ? { seq: 0, attempt: 1 } : { seq: d.seq, attempt: d.attempt },
      reply: (value) => {
        if (!direct && !(d as Deliver).request) throw new Error(`reply to message ${seq}, which is not a request`);
        if (replied) throw new Error(`second reply to message ${seq}`);
        replied = true;
        if (direct) direct.reply(value);
        else post({ type: 'actor.reply', seq, value });
      },
      progress: () => post({ type: 'actor.progress', seq }),
    };
    await handler((direct ? direct.msg : (d as Deliver).msg) as In, ctx);
    if (direct && !replied) direct.fail('no_reply', 'the handler finished without ctx.reply');
  }

  function serve(): void {
    if (!ready) return;
    while (!stopping && running < concurrency) {
      const d = queue.shift();
      if (!d) return;
      running++;
      // a peer's request is shown to the host while it runs, so the stall watchdog sees it as it sees deliveries
      if ('direct' in d) post({ type: 'actor.direct', id: d.id, done: false, msg: d.direct.msg });
      handle(d).then(() => {
        post('direct' in d ? { type: 'actor.direct', id: d.id, done: true } : { type: 'actor.ack', seq: d.seq });
        running--;
        if (stopping && running === 0) process.exit(0);
        serve();
      }, crash);
    }
  }

  let initStarted = false;
  port.on('message', (m: HostToWorker<In>) => {
    switch (m.type) {
      case 'actor.init':
        if (initStarted) return;
        initStarted = true;
        Promise.resolve(init ? init(initCtx) : (undefined as State))
          .then((s) => {
            state = s;
            ready = true;
            post({ type: 'actor.ready' });
            serve();
          })
          .catch(crash);
        return;
      case 'actor.deliver':
        queue.push(m);
        serve();
        return;
      case 'actor.metrics':
        Promise.all([register.getMetricsAsJSON(), threadMetrics()]).then(
          ([own, loop]) => post({ type: 'actor.metrics_result', id: m.id, metrics: [...own, ...loop] }),
          crash,
        );
        return;
      case 'actor.fault':
        injectFault(m.fault);
        return;
      case 'actor.response': {
        const waiter = asked.get(m.id);
        asked.delete(m.id);
        if (m.ok) waiter?.resolve(m.value);
        else waiter?.reject(new ActorRequestError(m.error.kind as ActorRequestFailure, m.error.message));
        return;
      }
      case 'actor.peer':
        peers.attach(m);
        return;
      case 'actor.stop':
        // Messages posted but not started stay unacked; the host keeps them for the next incarnation. A peer's
        // requests not started go back to their asker, which sends them through main (to the next incarnation).
        stopping = true;
        for (const q of queue.splice(0)) {
          if ('direct' in q) q.direct.fail('reroute', 'the worker is stopping');
          else queue.push(q);
        }
        if (running === 0) process.exit(0);
        log.debug('stopping after the current message', { reason: m.reason });
        return;
      default:
        assertNever(m);
    }
  });

  function injectFault(fault: ActorFault): void {
    switch (fault) {
      case 'throw':
        throwNext = true;
        return;
      case 'exit':
        process.exit(3);
        return; // never reached: exit ends the thread
      case 'hang':
        // blocks this thread for good: no more acks, no answers out of band; only terminate() ends it
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        return;
      default:
        assertNever(fault);
    }
  }
}

/**
 * An error as it can cross to the host thread. Node clones a plain Error whole (message, stack, own fields such as
 * `code`), but an Error subclass it does not know — better-sqlite3's SqliteError — arrives as its own fields alone,
 * its message lost: a damaged index stopped the daemon with "worker_error: [object Object]".
 */
function crossable(err: unknown): unknown {
  if (!(err instanceof Error) || Object.getPrototypeOf(err) === Error.prototype) return err;
  return Object.assign(new Error(err.message), err, { name: err.name, stack: err.stack });
}
