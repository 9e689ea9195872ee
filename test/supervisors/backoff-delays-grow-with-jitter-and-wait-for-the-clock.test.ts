// Restart backoff: delays double up to the cap, stay within ±jitter, reset after a stable period, and wait for the clock.
import t from 'tap';
import { backoffDelay } from '../../supervisors/backoff.js';
import { ManualClock } from '../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../supervisors/events.js';
import { startSupervisor } from '../../supervisors/supervisor.js';
import { EventLog } from './helpers/event-log.js';
import { workerChild, type LiveChildren } from './helpers/worker-child.js';

const backoff = { minMs: 100, maxMs: 1_000, jitter: 0.2 };

t.test('backoff doubles from minMs up to maxMs and jitter stays within bounds', async (t) => {
  const mid = () => 0.5;
  t.same(
    [1, 2, 3, 4, 5, 6, 60].map((n) => backoffDelay(backoff, n, mid)),
    [100, 200, 400, 800, 1_000, 1_000, 1_000],
  );
  t.equal(
    backoffDelay(backoff, 3, () => 0),
    320,
    'lowest draw: -20%',
  );
  t.equal(
    backoffDelay(backoff, 3, () => 0.999_999),
    480,
    'highest draw: +20%',
  );
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(backoff, 2, Math.random);
    if (d < 160 || d > 240) t.fail(`delay ${d} outside 200 ± 20%`);
  }
  t.equal(backoffDelay({ minMs: 0, maxMs: 0, jitter: 0.5 }, 1_000, mid), 0);
});

t.test('restarts wait for the clock, with growing jittered delays, reset after a stable period', { timeout: 20_000 }, async (t) => {
  const live: LiveChildren = new Map();
  const log = new EventLog<SupervisorEvent>();
  const clock = new ManualClock();
  const draws = [0, 0.999_999, 0.5, 0.5];
  const sup = await startSupervisor(
    {
      id: 'sup',
      strategy: 'one_for_one',
      intensity: 10,
      periodMs: 10_000,
      children: [workerChild('embedder', live, { backoff })],
    },
    { clock, random: () => draws.shift() ?? 0.5, events: log.push },
  );

  async function crashThenRestart(expectedDelay: number): Promise<void> {
    const from = log.mark();
    const old = live.get('embedder');
    old!.command('crash');
    const scheduled = await log.waitFor((e) => e.type === 'supervisor.restart_scheduled', from);
    t.match(scheduled, { children: ['embedder'], delayMs: expectedDelay });
    clock.advance(expectedDelay - 1);
    t.equal(sup.children()[0]?.state, 'restarting', `still down 1 ms before ${expectedDelay} ms`);
    t.equal(live.get('embedder'), old, 'no new incarnation yet');
    t.same(clock.pending(), [clock.now() + 1]);
    clock.advance(1);
    const restarted = await log.waitFor((e) => e.type === 'supervisor.child_restarted', from);
    t.match(restarted, { child: 'embedder', delayMs: expectedDelay });
    await sup.whenStable();
  }

  await crashThenRestart(80); // n=1: 100 · 0.8
  await crashThenRestart(240); // n=2: 200 · 1.2
  await crashThenRestart(400); // n=3: 400 · 1.0
  clock.advance(10_000); // a full period running without a crash
  await crashThenRestart(100); // back to n=1
  await sup.stop('test over');
});
