// Graceful stop lets the in-flight message finish and keeps the rest for later; a worker that never yields is terminated at shutdownMs.
import t from 'tap';
import { ManualClock } from '../../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import type { SupervisorSpec } from '../../../supervisors/spec.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor, type TestActor } from '../helpers/test-actor.js';

function spec(actor: TestActor): SupervisorSpec {
  return {
    id: 'sup',
    strategy: 'one_for_one',
    intensity: 1,
    periodMs: 10_000,
    children: [actor.handle.childSpec({ shutdownMs: 5_000 })],
  };
}

t.test('graceful stop drains the in-flight message before exit', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const actor = spawnTestActor({ clock });
  const { handle, out, events } = actor;
  const sup = await startSupervisor(spec(actor), { clock, events: sup$.push });

  handle.send({ type: 'test.gate', n: 1 });
  handle.send({ type: 'test.work', n: 2 });
  await out.waitFor((m) => m.type === 'test.started' && m.n === 1);

  const stopped = sup.stop('shutdown');
  await events.waitFor((e) => e.type === 'actor.log' && e.msg === 'stopping after the current message');
  actor.openGate(); // the handler may finish only now that the worker knows it is stopping
  await stopped;

  t.match(sup$.ofType('supervisor.child_exited'), [{ exit: { kind: 'normal' }, expected: true }], 'exited by itself, not killed');
  t.same(
    out.ofType('test.done').map((m) => m.n),
    [1],
    'the in-flight message finished; the next was not started',
  );
  t.equal(handle.depth(), 1, 'message 2 stays in the mailbox, unacked');
  t.same(clock.pending(), [], 'the shutdown deadline was cleared');

  // The same handle serves it once a new incarnation is attached.
  const again = await startSupervisor(spec(actor), { clock });
  await handle.onIdle();
  t.same(
    out.ofType('test.done').map((m) => m.n),
    [1, 2],
  );
  await again.stop('test over');
});

t.test('a hung worker is terminated after shutdownMs', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const actor = spawnTestActor({ clock });
  const { handle, out } = actor;
  const sup = await startSupervisor(spec(actor), { clock, events: sup$.push });

  handle.send({ type: 'test.hang' });
  await out.waitFor((m) => m.type === 'test.started');

  const deadline = clock.nextScheduled();
  let done = false;
  const stopped = sup.stop('shutdown').then(() => (done = true));
  await deadline;
  clock.advance(4_999);
  t.notOk(done, 'still waiting for the worker before shutdownMs');
  t.same(sup$.ofType('supervisor.child_exited'), []);
  clock.advance(1);
  await stopped;

  t.match(sup$.ofType('supervisor.child_exited'), [{ exit: { kind: 'killed' }, expected: true }]);
  t.same(await sup.exited, { kind: 'normal' }, 'the supervisor itself stopped cleanly');
});
