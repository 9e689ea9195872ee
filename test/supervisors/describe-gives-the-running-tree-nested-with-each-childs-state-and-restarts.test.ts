// Supervisor.describe, what the status page's supervision tree is drawn from: each supervisor's strategy and
// intensity, its children in start order with state and restarts, a nested supervisor inside its parent — and a nested
// supervisor waiting out its backoff still described, from its spec, as restarting.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import type { SupervisorSpec } from '../../supervisors/spec.js';
import { nestedSupervisor, startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

t.test('describe follows crashes, restarts and a nested supervisor between incarnations', { timeout: 30_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const clock = new ManualClock();
  const ingest: SupervisorSpec = {
    id: 'ingest',
    strategy: 'rest_for_one',
    intensity: 1,
    periodMs: 10_000,
    children: [workerChild('chunker', live), workerChild('embedder', live)],
  };
  const root = await startSupervisor(
    {
      id: 'root',
      strategy: 'one_for_one',
      intensity: 3,
      periodMs: 30_000,
      children: [
        workerChild('gateway', live),
        {
          id: 'ingest',
          start: nestedSupervisor(ingest),
          nested: ingest,
          restart: 'permanent',
          shutdownMs: 10_000,
          backoff: { minMs: 500, maxMs: 500, jitter: 0 },
        },
      ],
    },
    { clock, events: log.push },
  );
  t.teardown(() => root.stop('test over'));
  const running =
    (restarts: Record<string, number> = {}) =>
    (id: string) => ({ id, state: 'running', restarts: restarts[id] ?? 0 });

  t.same(root.describe(), {
    id: 'root',
    strategy: 'one_for_one',
    intensity: 3,
    periodMs: 30_000,
    children: [
      running()('gateway'),
      {
        ...running()('ingest'),
        supervisor: {
          id: 'ingest',
          strategy: 'rest_for_one',
          intensity: 1,
          periodMs: 10_000,
          children: ['chunker', 'embedder'].map(running()),
        },
      },
    ],
  });

  // rest_for_one: the chunker and the embedder after it come back, once each
  let from = log.mark();
  live.get('chunker')!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'embedder', from);
  await root.whenStable();
  t.same(root.describe().children[1]?.supervisor?.children, ['chunker', 'embedder'].map(running({ chunker: 1, embedder: 1 })));

  // a second crash within the period is past ingest's intensity: it gives up, and the root restarts it after 500 ms
  from = log.mark();
  live.get('embedder')!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.restart_scheduled' && e.supervisor === 'root', from);
  t.same(
    root.describe().children[1],
    {
      id: 'ingest',
      state: 'restarting',
      restarts: 0,
      supervisor: {
        id: 'ingest',
        strategy: 'rest_for_one',
        intensity: 1,
        periodMs: 10_000,
        children: ['chunker', 'embedder'].map((id) => ({ id, state: 'restarting', restarts: 0 })),
      },
    },
    'between incarnations: described from its spec, every child restarting',
  );
  t.same(root.describe().children[0], running()('gateway'), 'one_for_one: the gateway untouched');

  clock.advance(500);
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'ingest', from);
  await root.whenStable();
  t.same(
    root.describe().children[1],
    {
      ...running({ ingest: 1 })('ingest'),
      supervisor: {
        id: 'ingest',
        strategy: 'rest_for_one',
        intensity: 1,
        periodMs: 10_000,
        children: ['chunker', 'embedder'].map(running()),
      },
    },
    'a new ingest supervisor: its children start counting afresh',
  );
});
