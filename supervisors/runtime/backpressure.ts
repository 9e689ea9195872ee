// A mailbox's backpressure signals: a refused send is reported (`actor.mailbox_full`) and, once there is room again,
// `actor.drained`; onDrain's waiters wake when there is room, onIdle's when nothing is queued or in flight.
import type { ActorEvent } from '../../messages/actor.js';

export class Backpressure {
  readonly #actor: string;
  readonly #depth: () => number;
  readonly #full: () => boolean;
  readonly #emit: (e: ActorEvent) => void;
  #refused = false; // a send was refused since the mailbox was last below its limit
  #idleWaiters: Array<() => void> = [];
  #drainWaiters: Array<() => void> = [];

  constructor(actor: string, depth: () => number, full: () => boolean, emit: (e: ActorEvent) => void) {
    this.#actor = actor;
    this.#depth = depth;
    this.#full = full;
    this.#emit = emit;
  }

  onIdle(): Promise<void> {
    if (this.#depth() === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  onDrain(): Promise<void> {
    if (!this.#full()) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** A send or request was refused: the mailbox is full. */
  refused(): void {
    this.#refused = true;
    this.#emit({ type: 'actor.mailbox_full', actor: this.#actor, depth: this.#depth() });
  }

  /** A message left the mailbox: wake drain and idle waiters. */
  removed(): void {
    if (!this.#full()) {
      if (this.#refused) {
        this.#refused = false;
        this.#emit({ type: 'actor.drained', actor: this.#actor, depth: this.#depth() });
      }
      const drain = this.#drainWaiters;
      this.#drainWaiters = [];
      for (const w of drain) w();
    }
    if (this.#depth() === 0) {
      const idle = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const w of idle) w();
    }
  }
}
