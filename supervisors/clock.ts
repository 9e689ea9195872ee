// Injected time: supervisors, actor hosts and the actors' testable cores read the clock through this, so timer tests
// advance a ManualClock (test/helpers/manual-clock.ts) instead of sleeping.

/** Opaque handle for a scheduled timer; only the clock that made it can clear it. */
export type TimerHandle = object;

export interface Clock {
  /** Milliseconds; only differences are meaningful. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC): the same origin in every thread, and unmoved when
 * the wall clock jumps — for durations and ages that cross threads (e.g. a board slot read by another actor).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Real time. Timers keep the process alive, as a pending restart should. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Real time read from monotonicMs: for deadlines whose times other threads read too (the board's oldestPendingAt). */
export const monotonicClock: Clock = { ...systemClock, now: monotonicMs };
