// Children start in spec order (each awaited) and a graceful stop takes them down in reverse.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

t.test('children start in order and stop in reverse order', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const ids = ['store-writer', 'chunker', 'embedder', 'watcher'];
  const sup = await startSupervisor(
    { id: 'root', strategy: 'one_for_one', intensity: 1, periodMs: 1_000, children: ids.map((id) => workerChild(id, live)) },
    { clock: new ManualClock(), events: log.push },
  );
  t.same(
    log.ofType('supervisor.child_started').map((e) => e.child),
    ids,
  );

  await sup.stop('shutdown');
  t.same(
    log.ofType('supervisor.child_exited').map((e) => [e.child, e.exit.kind, e.expected]),
    [...ids].reverse().map((id) => [id, 'normal', true]),
    'each child drained and exited normally, last started first',
  );
  t.same(log.events.at(-1), { type: 'supervisor.stopped', supervisor: 'root', reason: 'shutdown' });
  t.same(await sup.exited, { kind: 'normal' });
  t.ok(sup.children().every((c) => c.state === 'stopped'));
});

t.test('a child that fails to start fails the supervisor start and stops those already started', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  await t.rejects(
    startSupervisor(
      {
        id: 'root',
        strategy: 'one_for_one',
        intensity: 1,
        periodMs: 1_000,
        children: [
          workerChild('a', live),
          workerChild('b', live),
          { id: 'broken', start: () => Promise.reject(new Error('no config')), restart: 'permanent', shutdownMs: 10 },
          workerChild('never', live),
        ],
      },
      { clock: new ManualClock(), events: log.push },
    ),
    { message: /child broken failed to start: no config/ },
  );
  t.same(
    log.ofType('supervisor.child_exited').map((e) => e.child),
    ['b', 'a'],
  );
  t.notOk(live.has('never'), 'children after the broken one never start');
});

t.test('an invalid spec is refused naming the field and the rule', async (t) => {
  await t.rejects(startSupervisor({ id: 'x', strategy: 'one_for_one', intensity: -1, periodMs: 1, children: [] }), {
    message: 'supervisor "x": intensity must be a non-negative integer',
  });
});
