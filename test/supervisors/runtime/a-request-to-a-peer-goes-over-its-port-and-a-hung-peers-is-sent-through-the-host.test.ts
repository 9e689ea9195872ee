// Two actors main has connected (ActorHandle.peer, runtime/peers.ts): a request goes over their port, not through the
// asking actor's host; the answering host still sees it (onDirect) and its stall watchdog still covers it. When the
// answering worker hangs on it and is terminated, the request goes through the asking actor's host instead.
import { MessageChannel } from 'node:worker_threads';
import t from 'tap';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test('a request crosses the peer port; a peer that hangs on it is terminated and the request goes through the host', async (t) => {
  const asked: unknown[] = [];
  const a = spawnTestActor({
    onRequest: (msg) => {
      asked.push(msg);
      return Promise.resolve({ twice: (msg as { n: number }).n * 2, from: 'host' });
    },
  });
  const seen: unknown[] = [];
  // the answering host hears of the request on its own port, which main may read after the asker's answer
  let sawFirst: () => void = () => {};
  const firstSeen = new Promise<void>((r) => (sawFirst = r));
  const b = spawnTestActor({
    stallMs: 400,
    onDirect: (msg) => {
      seen.push(msg);
      sawFirst();
    },
  });
  const childA = await a.handle.attach({ shutdownMs: 1_000 });
  t.teardown(() => childA.stop('test done'));
  const childB = await b.handle.attach({ shutdownMs: 1_000 });
  const { port1, port2 } = new MessageChannel();
  t.ok(a.handle.peer({ name: 'test', port: port1, asks: ['test.question'], answers: [] }));
  t.ok(b.handle.peer({ name: 'a', port: port2, asks: [], answers: ['test.question'] }));

  a.handle.send({ type: 'test.ask', n: 21 });
  t.same(await a.out.waitFor((m) => m.type === 'test.answer'), { type: 'test.answer', value: { twice: 42, from: 'peer' } });
  t.same(asked, [], 'the asking host never saw it');
  await firstSeen;
  t.same(seen, [{ type: 'test.question', n: 21 }], 'the answering host saw it start');

  a.handle.send({ type: 'test.ask', n: -1 });
  await b.out.waitFor((m) => m.type === 'test.started' && m.n === -1);
  const exit = await childB.exited; // the watchdog terminates the hung worker
  t.equal(exit.kind, 'crash');
  t.match(exit.kind === 'crash' ? exit.error : {}, { kind: 'stalled' });
  t.same(
    await a.out.waitFor((m) => m.type === 'test.answer' && (m.value as { from: string }).from === 'host'),
    { type: 'test.answer', value: { twice: -2, from: 'host' } },
    'the unanswered request went through the asking host',
  );
  t.same(asked, [{ type: 'test.question', n: -1 }]);
});
