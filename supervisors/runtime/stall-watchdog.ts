// The stall watchdog's one timer: set to the moment the oldest in-flight message would count as stalled, moved when
// that moment moves, cleared when nothing is in flight. What a stall means is the host's call (host.ts).
import type { Clock, TimerHandle } from '../clock.js';

export class StallWatchdog {
  readonly #clock: Clock;
  readonly #fire: () => void;
  #timer: { handle: TimerHandle; due: number } | undefined;

  constructor(clock: Clock, fire: () => void) {
    this.#clock = clock;
    this.#fire = fire;
  }

  /** Keeps one timer due at `due` (none when undefined); a timer already due then is left alone. */
  set(due: number | undefined): void {
    if (this.#timer && this.#timer.due === due) return;
    if (this.#timer) this.#clock.clearTimeout(this.#timer.handle);
    this.#timer = undefined;
    if (due === undefined) return;
    const handle = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#fire();
      },
      Math.max(0, due - this.#clock.now()),
    );
    this.#timer = { handle, due };
  }
}
