// catch_up_hours governs slots missed while the daemon was down; a run that had started when a crash cut it off is
// finished at the next start however long ago that was (the skills' idempotency keys make a finished half free):
// with catch_up_hours 0 half a minute later, and with 24 h three days later.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { coreRig, cron, DAY, flush, MIN, pass } from './helpers/core-rig.js';

const SLOT = Date.parse('2026-11-22T22:30:00Z');

for (const [catchUpHours, down] of [
  [0, 30_000],
  [24, 3 * DAY],
] as const) {
  t.test(`catch_up_hours ${catchUpHours}, back ${down / 1000} s after the crash: the cut-off run runs once`, async (t) => {
    const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:59Z', catchUpHours });
    r.core.start();
    r.hold = true; // the run never finishes: the daemon dies under it
    await pass(r.clock, 2_000, 500);
    t.equal(r.runs.length, 1);
    const saved = JSON.parse(readFileSync(path.join(r.dir, 'scheduler', 'state.json'), 'utf8'));
    t.equal(saved.jobs.daily_reflection.runningSlot, SLOT, 'the run under way is on disk');
    r.hold = false;
    r.clock.advance(down);
    r.restart();
    await flush();
    t.equal(r.runs.length, 2, 'the cut-off run ran at the start');
    t.match(r.runs[1], { slot: SLOT, trigger: 'catch_up' });
    r.restart();
    await pass(r.clock, MIN);
    t.equal(r.runs.filter((x) => x.slot === SLOT).length, 2, 'once, not again at the next start');
    r.release();
  });
}
