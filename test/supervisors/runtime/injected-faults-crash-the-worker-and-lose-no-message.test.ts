// ActorHandle.fault: `throw` fails the next handler (that message is redelivered), `exit` ends the thread with code 3.
import t, { type Test } from 'tap';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor } from '../helpers/test-actor.js';

async function start(t: Test) {
  const sup$ = new EventLog<SupervisorEvent>();
  const actor = spawnTestActor();
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 10, periodMs: 60_000, children: [actor.handle.childSpec({ shutdownMs: 5_000 })] },
    { events: sup$.push },
  );
  t.teardown(() => sup.stop('test over'));
  return { sup$, ...actor };
}

t.test('a throw fault crashes the worker on the next message, which the new worker then handles', { timeout: 30_000 }, async (t) => {
  const { sup$, handle, out } = await start(t);
  handle.fault('throw');
  handle.send({ type: 'test.work', n: 1 });
  handle.send({ type: 'test.work', n: 2 });
  await sup$.waitFor((e) => e.type === 'supervisor.child_restarted');
  await handle.onIdle();
  t.match(sup$.ofType('supervisor.child_exited'), [{ exit: { kind: 'crash', error: { message: /injected fault: throw in handler/ } } }]);
  t.same(
    out.ofType('test.done').map((m) => [m.n, m.attempt]),
    [
      [1, 2],
      [2, 2],
    ],
    'both messages were redelivered and done once',
  );
});

t.test('an exit fault ends the thread with code 3 and the supervisor restarts it', { timeout: 30_000 }, async (t) => {
  const { sup$, handle, out } = await start(t);
  handle.fault('exit');
  await sup$.waitFor((e) => e.type === 'supervisor.child_restarted');
  t.match(sup$.ofType('supervisor.child_exited'), [{ exit: { kind: 'crash', error: { kind: 'exit_code', message: /code 3/ } } }]);
  handle.send({ type: 'test.work', n: 5 });
  await out.waitFor((m) => m.type === 'test.done' && m.n === 5);
});

t.test('a fault with no live worker is refused as not_running', async (t) => {
  const { handle } = spawnTestActor();
  t.throws(() => handle.fault('exit'), { name: 'ActorRequestError', message: /no live worker/ });
});
