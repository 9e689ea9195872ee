// The asking side of a peer port (runtime/peers.ts) on an injected clock: a request the peer does not answer fails
// with `timeout` exactly when its time is up, and one still unanswered when the peer's port closes goes through the
// host with what is left of its time. Real MessageChannel ports; the answering side is a Peers too.
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import t from 'tap';
import { ActorRequestError } from '../../../supervisors/runtime/errors.js';
import { type DirectRequest, Peers } from '../../../supervisors/runtime/peers.js';
import { ManualClock } from '../../helpers/manual-clock.js';

function pair(teardown: (fn: () => void) => void) {
  const clock = new ManualClock(1_000);
  const viaHost: Array<{ msg: { type: string }; timeoutMs: number | null }> = [];
  const held: DirectRequest[] = [];
  const asker = new Peers(
    (msg, timeoutMs) => {
      viaHost.push({ msg, timeoutMs });
      return Promise.resolve('from the host');
    },
    () => {
      throw new Error('the asker answers nothing');
    },
    clock,
  );
  const answerer = new Peers(
    () => Promise.reject(new Error('the answerer asks nothing')),
    (r) => held.push(r),
  );
  const { port1, port2 } = new MessageChannel();
  asker.attach({ name: 'b', port: port1, asks: ['b.question'], answers: [] });
  answerer.attach({ name: 'a', port: port2, asks: [], answers: ['b.question'] });
  // an open port keeps the test process alive
  teardown(() => {
    port1.close();
    port2.close();
  });
  return { clock, asker, held, viaHost, port2 };
}

/** Resolves once the answering side has been handed `n` requests (messages cross the port asynchronously). */
async function handed(held: DirectRequest[], n: number): Promise<void> {
  while (held.length < n) await new Promise((r) => setImmediate(r));
}

t.test('an unanswered request times out when the clock reaches its deadline, not before', async (t) => {
  const { clock, asker, held } = pair((fn) => t.teardown(fn));
  let settled: unknown = null;
  const p = asker.request({ type: 'b.question' }, 500).then(
    (v) => (settled = { value: v }),
    (e: unknown) => (settled = e),
  );
  await handed(held, 1);
  clock.advance(499);
  await new Promise((r) => setImmediate(r));
  t.equal(settled, null, 'still waiting 1 ms before its time');
  clock.advance(1);
  await p;
  t.ok(settled instanceof ActorRequestError, 'failed');
  t.match(settled, { reason: 'timeout', message: /no reply within 500 ms/ });
  held[0]!.reply('too late'); // an answer after the timeout is dropped
});

t.test('an answered request resolves and leaves no timer behind', async (t) => {
  const { clock, asker, held } = pair((fn) => t.teardown(fn));
  const p = asker.request({ type: 'b.question' }, 500);
  await handed(held, 1);
  held[0]!.reply(42);
  t.equal(await p, 42);
  clock.advance(10_000); // its timer was cleared: nothing fires
});

t.test('a request unanswered when the port closes goes through the host with the time it has left', async (t) => {
  const { clock, asker, held, viaHost, port2 } = pair((fn) => t.teardown(fn));
  const p = asker.request({ type: 'b.question' }, 500);
  const untimed = asker.request({ type: 'b.question' }, null);
  await handed(held, 2);
  clock.advance(180);
  const closed = once(port2, 'close');
  port2.close(); // the answering worker died
  await closed;
  t.equal(await p, 'from the host');
  t.equal(await untimed, 'from the host');
  t.same(viaHost, [
    { msg: { type: 'b.question' }, timeoutMs: 320 },
    { msg: { type: 'b.question' }, timeoutMs: null },
  ]);
});
