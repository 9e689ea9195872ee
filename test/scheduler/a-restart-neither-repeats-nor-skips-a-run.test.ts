// The scheduler remembers the last slot it ran in <data dir>/scheduler/state.json: a restart right after a run does
// not run it again, a restart across a slot (down when it came) runs it once, and a run a crash cut off runs again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { coreRig, cron, flush, MIN, pass } from './helpers/core-rig.js';

const SLOT = Date.parse('2026-11-22T22:30:00Z');

t.test('a restart right after a run does not repeat it, and the next slot still runs', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:30Z' });
  r.core.start();
  await pass(r.clock, MIN);
  t.equal(r.runs.length, 1);
  const saved = JSON.parse(readFileSync(path.join(r.dir, 'scheduler', 'state.json'), 'utf8'));
  t.equal(saved.jobs.daily_reflection.lastSlot, SLOT, 'the slot is on disk');
  t.equal(saved.jobs.daily_reflection.runningSlot, null);
  await pass(r.clock, 10_000);
  r.restart();
  await pass(r.clock, 5 * MIN, 10_000);
  t.equal(r.runs.length, 1, 'not repeated after the restart');
  await pass(r.clock, 24 * 60 * MIN, 10 * MIN);
  t.equal(r.runs.length, 2, 'the next day ran');
  t.equal(r.runs[1]!.slot, SLOT + 24 * 60 * MIN);
});

t.test('down over a slot: the restart runs it once', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T20:00:00Z' });
  r.core.start();
  r.core.stop(); // the daemon goes down at 20:00 …
  r.clock.advance(3 * 60 * MIN); // … and comes back at 23:00
  r.restart();
  await flush();
  t.equal(r.runs.length, 1, 'the 22:30 slot ran at the restart');
  t.match(r.runs[0], { slot: SLOT, trigger: 'catch_up' }, 'half an hour late: a catch-up');
  r.restart();
  await pass(r.clock, MIN);
  t.equal(r.runs.length, 1, 'and only once');
});

t.test('a run a crash cut off runs again once at the next start', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:59Z' });
  r.core.start();
  r.hold = true; // the run never finishes: the daemon dies under it
  await pass(r.clock, 2_000, 500);
  t.equal(r.runs.length, 1);
  const saved = JSON.parse(readFileSync(path.join(r.dir, 'scheduler', 'state.json'), 'utf8'));
  t.equal(saved.jobs.daily_reflection.runningSlot, SLOT, 'the run under way is on disk');
  r.hold = false;
  r.clock.advance(30_000);
  r.restart();
  await flush();
  t.equal(r.runs.length, 2, 'run again');
  t.match(r.runs[1], { slot: SLOT, trigger: 'catch_up' });
  r.restart();
  await pass(r.clock, MIN);
  t.equal(r.runs.length, 2, 'once');
  r.release();
});
