// Restart policies: permanent always comes back, transient only after an abnormal exit, temporary never.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { startSupervisor, type Supervisor } from '../../supervisors/supervisor.js';
import type { Command } from './fixtures/commanded-worker.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

async function exitAndSettle(sup: Supervisor, live: LiveChildren, log: EventLog<SupervisorEvent>, id: string, cmd: Command) {
  const from = log.mark();
  live.get(id)!.command(cmd);
  await log.waitFor((e) => e.type === 'supervisor.child_exited' && e.child === id, from);
  await sup.whenStable();
  return log.events.slice(from);
}

t.test('permanent, transient and temporary children follow their restart rule', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'one_for_one',
      intensity: 10,
      periodMs: 1_000,
      children: [
        workerChild('perm', live, { restart: 'permanent' }),
        workerChild('trans-ok', live, { restart: 'transient' }),
        workerChild('trans-crash', live, { restart: 'transient' }),
        workerChild('trans-fail', live, { restart: 'transient' }),
        workerChild('temp', live, { restart: 'temporary' }),
      ],
    },
    { clock: new ManualClock(), events: log.push },
  );
  const restarted = (events: SupervisorEvent[]) => events.some((e) => e.type === 'supervisor.child_restarted');

  t.ok(restarted(await exitAndSettle(sup, live, log, 'perm', 'exit')), 'permanent: restarted after a normal exit');
  t.notOk(restarted(await exitAndSettle(sup, live, log, 'trans-ok', 'exit')), 'transient: not restarted after a normal exit');
  t.ok(restarted(await exitAndSettle(sup, live, log, 'trans-crash', 'crash')), 'transient: restarted after a crash');
  t.ok(restarted(await exitAndSettle(sup, live, log, 'trans-fail', 'fail')), 'transient: restarted after a non-zero exit');
  t.notOk(restarted(await exitAndSettle(sup, live, log, 'temp', 'crash')), 'temporary: not restarted even after a crash');

  t.same(
    sup.children().map((c) => [c.id, c.state, c.restarts]),
    [
      ['perm', 'running', 1],
      ['trans-ok', 'stopped', 0],
      ['trans-crash', 'running', 1],
      ['trans-fail', 'running', 1],
      ['temp', 'stopped', 0],
    ],
  );
  await sup.stop('test over');
});

t.test('one_for_all stops a temporary sibling and does not bring it back', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'one_for_all',
      intensity: 10,
      periodMs: 1_000,
      children: [workerChild('a', live), workerChild('temp', live, { restart: 'temporary' }), workerChild('b', live)],
    },
    { clock: new ManualClock(), events: log.push },
  );
  const events = await exitAndSettle(sup, live, log, 'b', 'crash');
  t.match(
    events.find((e) => e.type === 'supervisor.restart_scheduled'),
    { children: ['a', 'b'] },
  );
  t.same(
    sup.children().map((c) => [c.id, c.state, c.restarts]),
    [
      ['a', 'running', 1],
      ['temp', 'stopped', 0],
      ['b', 'running', 1],
    ],
  );
  await sup.stop('test over');
});
