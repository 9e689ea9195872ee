// Requests get replies or a reason code; a full mailbox refuses mail and says when it drains; metrics come out of band.
import t from 'tap';
import { ActorRequestError, type ActorRequestFailure } from '../../../supervisors/runtime/errors.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { spawnTestActor } from '../helpers/test-actor.js';

async function reason(p: Promise<unknown>): Promise<ActorRequestFailure | 'resolved' | 'other'> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof ActorRequestError ? e.reason : 'other';
  }
}

t.test('requests, timeouts, backpressure and metrics', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const actor = spawnTestActor({ clock, window: 1, maxMailbox: 3 });
  const { handle, events } = actor;
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 1, periodMs: 1_000, children: [handle.childSpec({ shutdownMs: 1_000 })] },
    { clock },
  );

  t.equal(await handle.request<number>({ type: 'test.double', n: 21 }, 1_000), 42, 'the handler replies');
  t.equal(await reason(handle.request({ type: 'test.silent', n: 0 }, 1_000)), 'no_reply');

  // Block the actor, then fill the mailbox behind it.
  t.ok(handle.send({ type: 'test.gate', n: 1 }));
  const late = handle.request({ type: 'test.double', n: 1 }, 500);
  t.ok(handle.send({ type: 'test.work', n: 2 }));
  t.equal(handle.depth(), 3);
  t.equal(handle.send({ type: 'test.work', n: 3 }), false, 'the fourth message is refused, not queued');
  t.equal(await reason(handle.request({ type: 'test.double', n: 4 }, 500)), 'mailbox_full');
  t.match(events.ofType('actor.mailbox_full'), [{ depth: 3 }, { depth: 3 }]);

  const drained = handle.onDrain();
  clock.advance(500);
  t.equal(await reason(late), 'timeout', 'a queued request times out on the clock');
  await drained;
  t.equal(handle.depth(), 2, 'the timed-out request left the mailbox');
  t.match(events.ofType('actor.drained'), [{ depth: 2 }]);

  const metrics = await handle.metrics(1_000);
  t.match(
    metrics.find((m) => m.name === 'test_actor_handled_total'),
    { type: 'counter', values: [{ value: 2 }] },
    'metrics answered while the handler awaits the gate',
  );

  actor.openGate();
  await handle.onIdle();
  await sup.stop('test over');
  t.equal(await reason(handle.metrics(1_000)), 'not_running');
});
