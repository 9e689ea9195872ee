// How long the LLM client waits before trying again: the server's Retry-After when it gives one, else exponential
// backoff with jitter, so several callers that failed together do not retry in lockstep.

export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 16_000;
/** A server that asks us to wait longer than this is treated as down for now: the call fails `rate_limited`. */
export const RETRY_AFTER_MAX_MS = 60_000;

/** Retry-After in ms: delta-seconds or an HTTP date (RFC 9110); null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const h = header.trim();
  if (/^\d+(\.\d+)?$/.test(h)) return Math.round(Number(h) * 1000);
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/** Backoff before retry number `attempt` (0 = the first retry): 0.5 s, 1 s, 2 s … capped, ±20 % jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt);
  return Math.round(exp * (0.8 + random() * 0.4));
}
