// A nested supervisor that gives up escalates to its parent, which restarts it per the parent's own strategy.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { nestedSupervisor, startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

t.test('a nested supervisor escalation is handled by its parent per the parent strategy', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const root = await startSupervisor(
    {
      id: 'root',
      strategy: 'rest_for_one',
      intensity: 3,
      periodMs: 1_000,
      children: [
        workerChild('store', live),
        {
          id: 'ingest',
          start: nestedSupervisor({
            id: 'ingest',
            strategy: 'one_for_one',
            intensity: 0, // the first crash inside escalates
            periodMs: 1_000,
            children: [workerChild('chunker', live), workerChild('embedder', live)],
          }),
          restart: 'permanent',
          shutdownMs: 10_000,
        },
        workerChild('gateway', live),
      ],
    },
    { clock: new ManualClock(), events: log.push },
  );
  const before = new Map(live);
  const from = log.mark();

  live.get('chunker')!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'gateway', from);
  await root.whenStable();

  const seen = log.events.slice(from);
  t.match(
    seen.find((e) => e.type === 'supervisor.escalated'),
    { supervisor: 'ingest', child: 'chunker' },
  );
  t.match(
    seen.find((e) => e.type === 'supervisor.child_exited' && e.supervisor === 'root'),
    { child: 'ingest', exit: { kind: 'crash', error: { kind: 'escalated' } }, expected: false },
    'the parent sees the nested supervisor crash with escalated',
  );
  t.match(
    seen.find((e) => e.type === 'supervisor.restart_scheduled' && e.supervisor === 'root'),
    { children: ['ingest', 'gateway'] },
    'rest_for_one in the parent: ingest and the gateway started after it',
  );
  t.equal(live.get('store'), before.get('store'), 'store, started before ingest, is untouched');
  for (const id of ['chunker', 'embedder', 'gateway']) t.not(live.get(id), before.get(id), `${id} is a new incarnation`);
  t.match(root.children(), [
    { id: 'store', state: 'running', restarts: 0 },
    { id: 'ingest', state: 'running', restarts: 1 },
    { id: 'gateway', state: 'running', restarts: 1 },
  ]);

  const stopFrom = log.mark();
  await root.stop('shutdown');
  t.same(
    log.events
      .slice(stopFrom)
      .filter((e) => e.type === 'supervisor.child_exited')
      .map((e) => e.child),
    ['gateway', 'embedder', 'chunker', 'ingest', 'store'],
    'stop goes depth-first in reverse start order',
  );
});
