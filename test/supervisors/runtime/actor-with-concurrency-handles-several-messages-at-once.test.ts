// runActor's concurrency option: several handlers run at once (for batching actors), each acked when it finishes.
import t from 'tap';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test('with concurrency 2 a second message starts while the first still waits', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const actor = spawnTestActor({ clock, concurrency: 2, window: 4 });
  const { handle, out } = actor;
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 1, periodMs: 1_000, children: [handle.childSpec({ shutdownMs: 1_000 })] },
    { clock },
  );
  handle.send({ type: 'test.gate', n: 1 });
  handle.send({ type: 'test.gate', n: 2 });
  handle.send({ type: 'test.gate', n: 3 });
  await out.waitFor((m) => m.type === 'test.started' && m.n === 2);
  t.same(
    out.ofType('test.started').map((m) => m.n),
    [1, 2],
    'two handlers run at once; the third waits for a free slot',
  );
  t.equal(handle.depth(), 3, 'none acked yet');
  actor.openGate();
  await handle.onIdle();
  t.same(
    out
      .ofType('test.done')
      .map((m) => m.n)
      .sort(),
    [1, 2, 3],
  );
  await sup.stop('test over');
});
