// ctx.request from a worker reaches the host's onRequest (main routes it on from there); the answer comes back to
// the handler that asked, and a refusal arrives as an ActorRequestError with its stable reason.
import t from 'tap';
import { ActorRequestError } from '../../../supervisors/runtime/errors.js';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test('the answer and the refusal reach the asking handler', async (t) => {
  const asked: unknown[] = [];
  const a = spawnTestActor({
    onRequest: (msg) => {
      asked.push(msg);
      const n = (msg as { n: number }).n;
      return n > 0 ? Promise.resolve({ twice: n * 2 }) : Promise.reject(new ActorRequestError('timeout', `no answer for ${n}`));
    },
  });
  const child = await a.handle.attach({ shutdownMs: 1_000 });
  t.teardown(() => child.stop('test done'));

  a.handle.send({ type: 'test.ask', n: 21 });
  t.same(await a.out.waitFor((m) => m.type === 'test.answer'), { type: 'test.answer', value: { twice: 42 } });
  a.handle.send({ type: 'test.ask', n: 0 });
  t.same(await a.out.waitFor((m) => m.type === 'test.refused'), { type: 'test.refused', reason: 'timeout', message: 'no answer for 0' });
  t.same(
    asked,
    [
      { type: 'test.question', n: 21 },
      { type: 'test.question', n: 0 },
    ],
    'the host saw each request as the worker sent it',
  );
});

t.test('without a router the host refuses a request as not_running', async (t) => {
  const a = spawnTestActor();
  const child = await a.handle.attach({ shutdownMs: 1_000 });
  t.teardown(() => child.stop('test done'));
  a.handle.send({ type: 'test.ask', n: 1 });
  t.match(await a.out.waitFor((m) => m.type === 'test.refused'), { reason: 'not_running' });
});
