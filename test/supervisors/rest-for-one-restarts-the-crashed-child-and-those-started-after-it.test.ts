// rest_for_one: the crashed child and every child started after it restart, in order; earlier ones are left alone.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

t.test('rest_for_one restarts the crashed child and every child started after it, in order', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'rest_for_one',
      intensity: 3,
      periodMs: 1_000,
      children: ['a', 'b', 'c', 'd'].map((id) => workerChild(id, live)),
    },
    { clock: new ManualClock(), events: log.push },
  );
  const before = new Map(live);
  const from = log.mark();

  live.get('b')!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'd', from);
  await sup.whenStable();

  const after = log.events.slice(from).map((e) => {
    switch (e.type) {
      case 'supervisor.child_exited':
        return `exited ${e.child}${e.expected ? '' : ' (crash)'}`;
      case 'supervisor.child_started':
        return `started ${e.child}`;
      case 'supervisor.restart_scheduled':
        return `restart ${e.children.join(',')}`;
      default:
        return undefined;
    }
  });
  t.same(
    after.filter((x) => x !== undefined),
    ['exited b (crash)', 'exited d', 'exited c', 'restart b,c,d', 'started b', 'started c', 'started d'],
    'later siblings stop in reverse, then all come back in start order',
  );
  t.equal(live.get('a'), before.get('a'), 'a, started before b, keeps its thread');
  for (const id of ['b', 'c', 'd']) t.not(live.get(id), before.get(id), `${id} is a new incarnation`);
  t.same(
    sup.children().map((c) => c.restarts),
    [0, 1, 1, 1],
  );

  await sup.stop('test over');
});
