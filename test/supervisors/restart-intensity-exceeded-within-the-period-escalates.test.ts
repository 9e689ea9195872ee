// More than `intensity` restarts within `periodMs` escalate; the same crashes spread beyond the period do not.
import t from 'tap';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { RestartWindow } from '../../supervisors/intensity.js';
import type { SupervisorSpec } from '../../supervisors/spec.js';
import { startSupervisor, type Supervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

function spec(live: LiveChildren): SupervisorSpec {
  return {
    id: 'ingest',
    strategy: 'one_for_one',
    intensity: 2,
    periodMs: 1_000,
    children: [workerChild('steady', live), workerChild('flaky', live)],
  };
}

async function crashAndAwaitRestart(sup: Supervisor, live: LiveChildren, log: EventLog<SupervisorEvent>): Promise<void> {
  const from = log.mark();
  live.get('flaky')!.command('crash');
  await log.waitFor((e) => e.type === 'supervisor.child_restarted' && e.child === 'flaky', from);
  await sup.whenStable();
}

t.test('more than intensity restarts within the period escalate', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const clock = new ManualClock();
  const sup = await startSupervisor(spec(live), { clock, events: log.push });

  await crashAndAwaitRestart(sup, live, log);
  clock.advance(400);
  await crashAndAwaitRestart(sup, live, log);
  clock.advance(400); // third crash at 800 ms: three restarts inside one 1 000 ms window
  live.get('flaky')!.command('crash');

  const exit = await sup.exited;
  t.match(exit, { kind: 'crash', error: { kind: 'escalated', message: /more than 2 restarts in 1000 ms; last: flaky crashed/ } });
  t.match(log.ofType('supervisor.escalated'), [{ supervisor: 'ingest', child: 'flaky', restarts: 3, periodMs: 1_000 }]);
  t.match(
    log.ofType('supervisor.child_exited').at(-1),
    { child: 'steady', exit: { kind: 'normal' }, expected: true },
    'the healthy sibling is stopped before escalating',
  );
  t.ok(sup.children().every((c) => c.state === 'stopped'));
  await t.rejects(sup.whenChildRunning('steady'), 'nothing runs after escalation');
});

t.test('the same crashes spread beyond the period do not escalate', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const clock = new ManualClock();
  const sup = await startSupervisor(spec(live), { clock, events: log.push });

  for (let i = 0; i < 5; i++) {
    await crashAndAwaitRestart(sup, live, log);
    clock.advance(600); // never more than 2 restarts inside any 1 000 ms
  }
  t.same(log.ofType('supervisor.escalated'), []);
  t.match(sup.children(), [
    { id: 'steady', state: 'running', restarts: 0 },
    { id: 'flaky', state: 'running', restarts: 5 },
  ]);
  await sup.stop('test over');
});

t.test('the restart window slides on the clock', async (t) => {
  const w = new RestartWindow(2, 1_000);
  t.ok(w.admit(0));
  t.ok(w.admit(500));
  t.notOk(w.admit(999), 'a third restart inside 1 000 ms is refused');
  const w2 = new RestartWindow(2, 1_000);
  t.ok(w2.admit(0));
  t.ok(w2.admit(500));
  t.ok(w2.admit(1_000), 'the restart at 0 has left the window at 1 000');
  t.equal(w2.count(1_000), 2);
  const none = new RestartWindow(0, 1_000);
  t.notOk(none.admit(0), 'intensity 0 means the first restart already escalates');
});
