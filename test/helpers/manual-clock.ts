// A clock that only moves when a test calls `advance`: every core that takes a Clock is tested with it, never sleeping.
import type { Clock, TimerHandle } from '../../supervisors/clock.js';

interface ManualTimer {
  at: number;
  seq: number; // ties fire in the order they were scheduled
  fn: () => void;
}

/** A clock that only moves when a test calls `advance`. */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers = new Set<ManualTimer>();
  #scheduled: Array<() => void> = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.add(timer);
    const waiters = this.#scheduled;
    this.#scheduled = [];
    for (const w of waiters) w();
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as ManualTimer);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in due order (including timers those timers schedule). */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const t of this.#timers) {
        if (t.at <= target && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      }
      if (!next) break;
      this.#timers.delete(next);
      this.#now = next.at;
      next.fn();
    }
    this.#now = target;
  }

  /**
   * The wall clock steps by `ms` (an NTP correction, a resumed VM) without time passing: nothing fires, and pending
   * timers keep their remaining duration, as real timers do (they run on the monotonic clock).
   */
  jump(ms: number): void {
    this.#now += ms;
    for (const t of this.#timers) t.at += ms;
  }

  /** Due times (absolute) of the timers not yet fired, soonest first. */
  pending(): number[] {
    return [...this.#timers].map((t) => t.at).sort((a, b) => a - b);
  }

  /** Resolves the next time anyone schedules a timer: lets a test wait for a backoff to be armed before advancing. */
  nextScheduled(): Promise<void> {
    return new Promise((resolve) => this.#scheduled.push(resolve));
  }
}
