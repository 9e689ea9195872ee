// A cron job fires at its slot, read in the scheduler's time zone, within a second of it, once per slot; list()
// shows the next run and the last one; a manual run waits for one under way and leaves the slots alone.
import t from 'tap';
import { coreRig, cron, DAY, every, flush, MIN, pass } from './helpers/core-rig.js';

t.test('"30 22 * * *" in Europe/Berlin fires at 21:30 UTC in winter, once a day, within a second', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *', 'Europe/Berlin')], { start: '2026-11-22T21:00:00Z', tz: 'Europe/Berlin' });
  r.core.start();
  t.same(r.runs, [], 'nothing at start: slots before the first start are not made up');
  const [info] = r.core.list();
  t.match(info, {
    name: 'daily_reflection',
    state: 'scheduled',
    schedule: '30 22 * * *',
    tz: 'Europe/Berlin',
    next_run: '2026-11-22T21:30:00.000Z',
    last_run: null,
  });
  await pass(r.clock, 29 * MIN + 59_000);
  t.same(r.runs, [], 'not before its minute');
  await pass(r.clock, 2_000, 100);
  t.equal(r.runs.length, 1);
  const slot = Date.parse('2026-11-22T21:30:00Z');
  t.match(r.runs[0], { job: 'daily_reflection', trigger: 'schedule', slot });
  t.ok(r.runs[0]!.at - slot >= 0 && r.runs[0]!.at - slot < 1_000, `fired ${r.runs[0]!.at - slot} ms after its minute`);
  await pass(r.clock, DAY - 2 * MIN, 30 * MIN);
  t.equal(r.runs.length, 1, 'once per slot');
  await pass(r.clock, 3 * MIN, 1_000);
  t.equal(r.runs.length, 2, 'the next day');
  t.equal(r.runs[1]!.slot, slot + DAY);
  t.match(r.core.list()[0], {
    last_run: { trigger: 'schedule', outcome: 'written', path: 'Reflections/x.md' },
    next_run: '2026-11-24T21:30:00.000Z',
  });
});

t.test('a manual run waits for a run under way, and does not count as a slot', async (t) => {
  const r = coreRig(t, [cron('weekly_review', '0 18 * * 0'), every('meeting_note', 300)], { start: '2026-11-22T17:59:00Z' });
  r.core.start();
  await flush();
  t.equal(r.runs.length, 1, 'an interval job runs at its first start');
  t.equal(r.runs[0]?.job, 'meeting_note');
  r.hold = true;
  await pass(r.clock, 61_000, 500);
  t.equal(r.runs.at(-1)?.job, 'weekly_review');
  t.equal(r.core.list().find((j) => j.name === 'weekly_review')?.state, 'running');
  const manual = r.core.runNow('weekly_review', { date: '2026-11-15' });
  await flush();
  t.equal(r.runs.filter((x) => x.job === 'weekly_review').length, 1, 'the manual run waits');
  r.hold = false;
  r.release();
  const done = await manual;
  t.match(done, { job: 'weekly_review', outcome: 'written' });
  t.match(r.runs.at(-1), { job: 'weekly_review', trigger: 'manual', slot: null, date: '2026-11-15' });
  t.equal(await r.core.runNow('no_such_job'), null, 'an unknown job');
  await pass(r.clock, 10 * MIN, 30_000);
  t.equal(r.runs.filter((x) => x.job === 'weekly_review').length, 2, 'the slot was not run again after the manual run');
  t.equal(r.runs.filter((x) => x.job === 'meeting_note').length, 3, 'the poll every 300 s went on');
});
