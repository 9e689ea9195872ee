// one_for_one: a crashed child comes back; its siblings keep running the same threads.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

t.test('one_for_one restarts only the crashed child', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'one_for_one',
      intensity: 3,
      periodMs: 1_000,
      children: ['a', 'b', 'c'].map((id) => workerChild(id, live)),
    },
    { clock: new ManualClock(), events: log.push },
  );
  const [a, b, c] = [live.get('a'), live.get('b'), live.get('c')];

  b!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'b');
  await sup.whenStable();

  t.equal(live.get('a'), a, 'a is the same incarnation');
  t.not(live.get('b'), b, 'b is a new incarnation');
  t.equal(live.get('c'), c, 'c is the same incarnation');
  t.same(
    sup.children().map((ci) => [ci.id, ci.state, ci.restarts]),
    [
      ['a', 'running', 0],
      ['b', 'running', 1],
      ['c', 'running', 0],
    ],
  );
  const exited = log.ofType('supervisor.child_exited');
  t.same(
    exited.map((e) => [e.child, e.exit.kind, e.expected]),
    [['b', 'crash', false]],
    'only b exited',
  );
  t.match(exited[0]?.exit, { kind: 'crash', error: { message: 'boom from b' } });

  await sup.stop('test over');
  t.same(await sup.exited, { kind: 'normal' });
});
