// A message that crashes its worker every time is dropped after maxAttempts, and the actor serves the mail behind it.
import t from 'tap';
import { ActorRequestError } from '../../../supervisors/runtime/errors.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test('a poison message is dropped after N attempts and the actor keeps serving later messages', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const { handle, out, events } = spawnTestActor({ clock, maxAttempts: 3 });
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 5, periodMs: 10_000, children: [handle.childSpec({ shutdownMs: 1_000 })] },
    { clock, events: sup$.push },
  );

  const poisoned = handle.request({ type: 'test.poison' }, 60_000);
  handle.send({ type: 'test.work', n: 1 });
  handle.send({ type: 'test.work', n: 2 });

  const err = await poisoned.then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof ActorRequestError && err.reason === 'poison', 'the requester learns its message was dropped as poison');
  await handle.onIdle();

  t.match(events.ofType('actor.poison'), [
    { actor: 'test-actor', attempts: 3, msg: { type: 'test.poison' }, error: { message: 'poison' } },
  ]);
  t.same(
    out.ofType('test.done').map((m) => m.n),
    [1, 2],
    'the messages behind the poison one are served',
  );
  t.equal(sup$.ofType('supervisor.child_restarted').length, 3, 'one restart per crash, no more');
  await sup.whenStable();
  t.match(sup.children(), [{ state: 'running', restarts: 3 }]);

  handle.send({ type: 'test.work', n: 3 });
  await handle.onIdle();
  t.match(out.events.at(-1), { type: 'test.done', n: 3 }, 'and keeps serving afterwards');
  await sup.stop('test over');
});
