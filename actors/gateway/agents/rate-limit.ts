// A token bucket per agent: each holds up to N calls and refills at N per second, minute or hour (the agent's
// `--rate`, else agents.default_rate). One agent's flood empties its own bucket only; the others keep theirs.
import { RATE } from '../../../config/schema-agents.js';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

export interface Rate {
  capacity: number;
  /** Tokens per ms. */
  perMs: number;
}

export function parseRate(s: string): Rate | null {
  const m = RATE.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  return { capacity: n, perMs: n / UNIT_MS[m[2] as keyof typeof UNIT_MS] };
}

interface Bucket {
  rate: string;
  tokens: number;
  at: number;
}

export type Take = { ok: true } | { ok: false; retryAfterS: number };

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Spends one call of `agent`'s bucket; when it is empty, says in how many seconds one is back. */
  take(agent: string, rate: string): Take {
    const r = parseRate(rate);
    if (!r) return { ok: true }; // agents.json is validated on read: an unparsable rate cannot get here
    const now = this.#now();
    let b = this.#buckets.get(agent);
    if (!b || b.rate !== rate) {
      b = { rate, tokens: r.capacity, at: now };
      this.#buckets.set(agent, b);
    }
    b.tokens = Math.min(r.capacity, b.tokens + (now - b.at) * r.perMs);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    // the epsilon keeps float noise (3600.0000001 s) from adding a whole second
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / r.perMs / 1000 - 1e-9)) };
  }
}
