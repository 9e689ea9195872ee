// An actor's host-side mailbox: outlives worker incarnations, keeps posted messages until acked, counts crashes per message.

export interface PendingRequest {
  settled: boolean;
  replied: boolean;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** Settles a request once: a reply or a failure arriving after it was settled (timed out, say) is ignored. */
export function settle(req: PendingRequest | undefined, outcome: { value: unknown } | { error: Error }): void {
  if (!req || req.settled) return;
  req.settled = true;
  if ('error' in outcome) req.reject(outcome.error);
  else req.resolve(outcome.value);
}

export interface Envelope<In> {
  seq: number;
  msg: In;
  /** Times posted to a worker. */
  attempts: number;
  /** Clock time of the latest post to a worker, or of its latest ack or progress report (the stall watchdog reads it). */
  activeSince?: number;
  /** Times a worker crashed while this was the oldest unacked message, i.e. the one being handled. */
  crashes: number;
  request?: PendingRequest;
}

export class Mailbox<In> {
  #queue: Envelope<In>[] = []; // not yet posted to the current incarnation, in seq order
  #inflight: Envelope<In>[] = []; // posted, not acked, in seq order
  #seq = 0;

  constructor(
    readonly window: number,
    readonly maxDepth: number,
    readonly maxAttempts: number,
  ) {}

  /** Queued plus in flight. */
  depth(): number {
    return this.#queue.length + this.#inflight.length;
  }

  full(): boolean {
    return this.depth() >= this.maxDepth;
  }

  /** Undefined when the mailbox is full: the message was not taken. */
  push(msg: In, request?: PendingRequest): Envelope<In> | undefined {
    if (this.full()) return undefined;
    const env: Envelope<In> = { seq: ++this.#seq, msg, attempts: 0, crashes: 0 };
    if (request) env.request = request;
    this.#queue.push(env);
    return env;
  }

  /** The next envelope that fits in the in-flight window, now counted as in flight. */
  takeNext(): Envelope<In> | undefined {
    if (this.#inflight.length >= this.window) return undefined;
    const env = this.#queue.shift();
    if (!env) return undefined;
    env.attempts++;
    this.#inflight.push(env);
    return env;
  }

  /** Gives up on an envelope just taken whose post failed. */
  discardInflight(env: Envelope<In>): void {
    this.#inflight = this.#inflight.filter((e) => e !== env);
  }

  /** The worker showed life (an ack or a progress report): messages waiting behind the one it handles start their clock again. */
  touchInflight(now: number): void {
    for (const e of this.#inflight) e.activeSince = now;
  }

  /** The earliest `activeSince` among in-flight messages; undefined when nothing is in flight. */
  oldestActiveSince(): number | undefined {
    let oldest: number | undefined;
    for (const e of this.#inflight)
      if (e.activeSince !== undefined && (oldest === undefined || e.activeSince < oldest)) oldest = e.activeSince;
    return oldest;
  }

  inflight(seq: number): Envelope<In> | undefined {
    return this.#inflight.find((e) => e.seq === seq);
  }

  ack(seq: number): Envelope<In> | undefined {
    const i = this.#inflight.findIndex((e) => e.seq === seq);
    if (i < 0) return undefined;
    const [env] = this.#inflight.splice(i, 1);
    return env;
  }

  /** Withdraws a message no worker has seen yet (a timed-out request); false once it has been posted. */
  withdraw(env: Envelope<In>): boolean {
    const i = this.#queue.indexOf(env);
    if (i < 0) return false;
    this.#queue.splice(i, 1);
    return true;
  }

  /**
   * The incarnation is gone: its unacked messages go back to the front, in order, for the next one.
   * After a crash the oldest of them (the one being handled) is blamed, and dropped once blamed maxAttempts times.
   */
  requeue(crashed: boolean): { poisoned?: Envelope<In>; redelivered: number } {
    let poisoned: Envelope<In> | undefined;
    const head = this.#inflight[0];
    if (crashed && head) {
      head.crashes++;
      if (head.crashes >= this.maxAttempts) poisoned = this.#inflight.shift();
    }
    const redelivered = this.#inflight.length;
    this.#queue = [...this.#inflight, ...this.#queue];
    this.#inflight = [];
    return poisoned ? { poisoned, redelivered } : { redelivered };
  }
}
