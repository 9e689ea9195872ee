// Restart delay for a flaky child: exponential from minMs, capped at maxMs, spread by jitter so siblings don't restart in lockstep.
import type { Backoff } from './spec.js';

/**
 * Delay before restart `n` (1-based): min(maxMs, minMs·2^(n-1)), then scaled by a factor drawn uniformly from
 * [1 - jitter, 1 + jitter] using `random()` in [0, 1). Never negative; whole milliseconds.
 */
export function backoffDelay(b: Backoff, n: number, random: () => number): number {
  const exp = Math.min(Math.max(0, n - 1), 52); // past 2^52 the cap has long since applied
  const base = b.minMs <= 0 ? 0 : Math.min(b.maxMs, b.minMs * 2 ** exp);
  const factor = 1 + b.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base * factor));
}
