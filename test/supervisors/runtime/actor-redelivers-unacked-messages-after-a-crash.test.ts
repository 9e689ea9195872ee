// A crash loses no work: the message being handled is redelivered to the next incarnation, and mail sent meanwhile follows in order.
import t from 'tap';
import { ManualClock } from '../../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test('a message being handled when the worker crashes is redelivered after restart and completes', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const { handle, out, events } = spawnTestActor({ clock });
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'one_for_one',
      intensity: 5,
      periodMs: 10_000,
      children: [handle.childSpec({ shutdownMs: 1_000, backoff: { minMs: 100, maxMs: 1_000, jitter: 0 } })],
    },
    { clock, events: sup$.push },
  );

  handle.send({ type: 'test.work', n: 1 });
  await handle.onIdle();
  handle.send({ type: 'test.crash_first', n: 2 });
  await sup$.waitFor((e) => e.type === 'supervisor.restart_scheduled');
  t.match(out.events.at(-1), { type: 'test.started', n: 2, attempt: 1 }, 'the crash came mid-handler');

  // The worker is down until the clock reaches the backoff; mail keeps arriving.
  for (const n of [3, 4, 5]) t.equal(handle.send({ type: 'test.work', n }), true);
  t.equal(handle.depth(), 4, 'the unacked message and the three new ones wait host-side');
  t.equal(sup.children()[0]?.state, 'restarting');

  clock.advance(100);
  await handle.onIdle();

  t.same(
    out.ofType('test.done').map((m) => [m.n, m.attempt]),
    [
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 1],
      [5, 1],
    ],
    'every message completed, in order; the interrupted one on its second attempt',
  );
  t.match(events.ofType('actor.redelivered'), [{ actor: 'test-actor', count: 1 }]);
  t.equal(handle.depth(), 0);
  await sup.stop('test over');
});
