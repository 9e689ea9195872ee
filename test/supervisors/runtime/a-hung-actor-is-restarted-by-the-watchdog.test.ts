// The stall watchdog: a worker that stops acking for stallMs is terminated as `stalled`, restarted, and its message redelivered.
import t, { type Test } from 'tap';
import { ManualClock } from '../../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor, type TestActor } from '../helpers/test-actor.js';

async function start(t: Test, opts: { stallMs?: number; maxAttempts?: number } = {}) {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const actor: TestActor = spawnTestActor({ clock, stallMs: 1_000, ...opts });
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 10, periodMs: 60_000, children: [actor.handle.childSpec({ shutdownMs: 5_000 })] },
    { clock, events: sup$.push },
  );
  t.teardown(() => sup.stop('test over'));
  return { clock, sup$, ...actor };
}

t.test(
  'a hung worker is terminated as stalled after stallMs and its message is handled by the next one',
  { timeout: 30_000 },
  async (t) => {
    const { clock, sup$, handle, out } = await start(t);

    handle.send({ type: 'test.work', n: 0 });
    await handle.onIdle();
    t.same(clock.pending(), [], 'no watchdog timer while nothing is in flight');

    handle.fault('hang'); // out of band: the thread blocks before it sees the next delivery
    handle.send({ type: 'test.work', n: 1 });
    t.same(clock.pending(), [1_000], 'the watchdog is armed for the message just posted');
    clock.advance(999);
    t.same(sup$.ofType('supervisor.child_exited'), [], 'not stalled before stallMs');

    const restarted = sup$.waitFor((e) => e.type === 'supervisor.child_restarted');
    clock.advance(1);
    await restarted;
    t.match(sup$.ofType('supervisor.child_exited'), [{ exit: { kind: 'crash', error: { kind: 'stalled' } }, expected: false }]);
    await handle.onIdle();
    t.same(
      out.ofType('test.done').map((m) => [m.n, m.attempt]),
      [
        [0, 1],
        [1, 2],
      ],
      'message 1 never finished in the hung worker and was redelivered to the new one',
    );
    t.same(clock.pending(), [], 'the watchdog is disarmed once everything is acked');
  },
);

t.test('the stall clock of a message waiting behind a slow one starts at the last ack, not at its post', { timeout: 30_000 }, async (t) => {
  const { clock, sup$, handle, out, openGate } = await start(t, { maxAttempts: 1 }); // the hang is then dropped, not retried
  handle.send({ type: 'test.gate', n: 1 }); // slow but alive
  handle.send({ type: 'test.hang' }); // posted at 0 too, handled only after message 1 is acked
  await out.waitFor((m) => m.type === 'test.started' && m.n === 1);
  clock.advance(999);
  openGate();
  await out.waitFor((m) => m.type === 'test.started' && m.n === -1); // message 1 was acked first
  clock.advance(999);
  t.same(sup$.ofType('supervisor.child_exited'), [], 'not stalled 999 ms after the last ack, though posted 1998 ms ago');
  const exited = sup$.waitFor((e) => e.type === 'supervisor.child_exited');
  clock.advance(1);
  t.match(await exited, { exit: { kind: 'crash', error: { kind: 'stalled' } } }, 'stalled once 1000 ms pass without life');
});

t.test('a message that stalls every worker is dropped as poison and the rest are served', { timeout: 30_000 }, async (t) => {
  const { clock, sup$, handle, out, events } = await start(t, { maxAttempts: 2 });
  handle.send({ type: 'test.hang' });
  handle.send({ type: 'test.work', n: 7 });
  for (let i = 1; i <= 2; i++) {
    const from = out.mark();
    await out.waitFor((m) => m.type === 'test.started' && m.attempt === i, from);
    const exited = sup$.waitFor((e) => e.type === 'supervisor.child_exited', sup$.mark());
    clock.advance(1_000);
    t.match(await exited, { exit: { kind: 'crash', error: { kind: 'stalled' } } }, `stall ${i} terminates the worker`);
  }
  await out.waitFor((m) => m.type === 'test.done' && m.n === 7);
  t.match(events.ofType('actor.poison'), [{ attempts: 2, msg: { type: 'test.hang' }, error: { kind: 'stalled' } }]);
});

t.test('stallMs must be positive', async (t) => {
  t.throws(() => spawnTestActor({ stallMs: 0 }), /stallMs must be a positive number/);
});
