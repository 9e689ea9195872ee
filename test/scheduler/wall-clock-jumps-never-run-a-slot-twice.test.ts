// The wall clock steps (NTP, a resumed laptop, a wrong clock corrected) while the scheduler runs: back a day, no slot
// it already ran runs again; forward a year, one run (the latest slot), not one per skipped minute; interval jobs
// never wait longer than one interval after a step back. Timers run on the monotonic clock, so a step is noticed at
// the scheduler's next look (within MAX_WAIT_MS, 10 s).
import t from 'tap';
import { coreRig, cron, DAY, every, MIN, pass } from './helpers/core-rig.js';

t.test('a minute job: back a day runs nothing twice, forward a year runs once, then every minute again', async (t) => {
  const r = coreRig(t, [cron('minutely', '* * * * *')], { start: '2026-11-22T10:00:30Z' });
  r.core.start();
  await pass(r.clock, 3 * MIN);
  t.equal(r.runs.length, 3, '10:01, 10:02, 10:03');
  const ranSlots = new Set(r.runs.map((x) => x.slot));

  r.clock.jump(-DAY);
  await pass(r.clock, 10 * MIN, 5_000);
  t.equal(r.runs.length, 3, 'after a step back nothing runs: every slot now due was already run or is older');

  r.clock.jump(DAY + 365 * DAY);
  for (let waited = 0; r.runs.length === 3 && waited <= 11_000; waited += 500) await pass(r.clock, 500, 500);
  t.equal(r.runs.length, 4, 'a year forward: one run, within the 10 s the scheduler takes to look again');
  t.equal(r.runs[3]!.trigger, 'schedule', 'the latest slot, a few seconds old');
  t.ok(
    r.events.some((e) => e.event === 'scheduler_slots_missed' && (e.fields['missed'] as number) >= 10_000),
    'the skipped minutes are counted, not run',
  );
  await pass(r.clock, 3 * MIN, 1_000);
  t.equal(r.runs.length, 7, 'then once a minute');
  const slots = r.runs.map((x) => x.slot);
  t.equal(new Set(slots).size, slots.length, 'no slot ran twice');
  t.ok(
    r.runs.slice(3).every((x) => !ranSlots.has(x.slot)),
    'none of the slots before the jumps ran again',
  );
});

t.test('a step forward across a slot runs it once; a step back over it does not run it again', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:00Z' });
  r.core.start();
  r.clock.jump(90_000); // 22:30:30 without any time passing
  await pass(r.clock, 61_000);
  t.equal(r.runs.length, 1);
  r.clock.jump(-5 * MIN); // 22:25:31
  await pass(r.clock, 10 * MIN, 10_000);
  t.equal(r.runs.length, 1, '22:30 came round again on the wall clock but was not run twice');
});

t.test('an interval job after a step back waits one interval, not the size of the step', async (t) => {
  const r = coreRig(t, [every('meeting_note', 300)], { start: '2026-11-22T10:00:00Z' });
  r.core.start();
  await pass(r.clock, 1_000);
  t.equal(r.runs.length, 1);
  r.clock.jump(-DAY);
  await pass(r.clock, 361_000, 10_000);
  t.equal(r.runs.length, 2, 'ran again within one interval and one look, not after a day');
  r.clock.jump(365 * DAY);
  await pass(r.clock, 61_000);
  t.equal(r.runs.length, 3, 'a step forward: one run, at the next look');
  await pass(r.clock, 230_000, 10_000);
  t.equal(r.runs.length, 3);
});
