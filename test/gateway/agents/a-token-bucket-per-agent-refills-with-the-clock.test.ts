// The rate limiter with an injected clock: each agent's bucket holds N calls, refills at its rate, says when the next
// call fits (Retry-After), and one agent's empty bucket leaves another's untouched.
import t from 'tap';
import { parseRate, RateLimiter } from '../../../actors/gateway/agents/rate-limit.js';

t.test('a bucket empties, says when to retry, and refills with time', async (t) => {
  let now = 0;
  const rl = new RateLimiter(() => now);
  for (let i = 0; i < 3; i++) t.same(rl.take('a', '3/s'), { ok: true });
  t.same(rl.take('a', '3/s'), { ok: false, retryAfterS: 1 });
  t.same(rl.take('b', '3/s'), { ok: true }, 'another agent has its own bucket');
  now += 340; // one call's worth at 3/s
  t.same(rl.take('a', '3/s'), { ok: true });
  t.same(rl.take('a', '3/s'), { ok: false, retryAfterS: 1 });
  now += 10_000;
  for (let i = 0; i < 3; i++) t.same(rl.take('a', '3/s'), { ok: true }, 'refilled to its capacity, no more');
  t.equal(rl.take('a', '3/s').ok, false);
});

t.test('per-minute and per-hour rates, and Retry-After in whole seconds', async (t) => {
  let now = 0;
  const rl = new RateLimiter(() => now);
  t.same(parseRate('600/m'), { capacity: 600, perMs: 0.01 });
  t.equal(parseRate('20/d'), null);
  t.same(rl.take('h', '1/h'), { ok: true });
  t.same(rl.take('h', '1/h'), { ok: false, retryAfterS: 3600 });
  now += 1_800_000;
  t.same(rl.take('h', '1/h'), { ok: false, retryAfterS: 1800 });
});
