// Slots missed while the daemon was down are made up once — the latest of them, if it is within catch_up_hours — not
// once per missed slot; older ones are passed over and logged.
import t from 'tap';
import { coreRig, cron, DAY, flush, HOUR, MIN, pass } from './helpers/core-rig.js';

t.test('three days down: the latest daily slot runs once, the two before are counted as missed', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-20T12:00:00Z' });
  r.core.start();
  r.core.stop();
  r.clock.advance(3 * DAY); // back on the 23rd at 12:00: slots of the 20th, 21st and 22nd were missed
  r.restart();
  await flush();
  t.equal(r.runs.length, 1, 'one run, not three');
  t.match(r.runs[0], { trigger: 'catch_up', slot: Date.parse('2026-11-22T22:30:00Z') });
  t.match(
    r.events.find((e) => e.event === 'scheduler_slots_missed'),
    { fields: { job: 'daily_reflection', missed: 2 } },
  );
  await pass(r.clock, 2 * HOUR, 10 * MIN);
  t.equal(r.runs.length, 1);
});

t.test('an hourly job down for ten hours runs once at the restart', async (t) => {
  const r = coreRig(t, [cron('hourly', '0 * * * *')], { start: '2026-11-20T00:30:00Z' });
  r.core.start();
  r.core.stop();
  r.clock.advance(10 * HOUR);
  r.restart();
  await pass(r.clock, 20 * MIN, MIN);
  t.equal(r.runs.length, 1);
  t.equal(r.runs[0]!.slot, Date.parse('2026-11-20T10:00:00Z'));
  await pass(r.clock, 20 * MIN, MIN);
  t.equal(r.runs.length, 2, 'then on the hour again');
});

t.test('a missed slot older than catch_up_hours is dropped, not run', async (t) => {
  const r = coreRig(t, [cron('weekly_review', '0 18 * * 0')], { start: '2026-11-22T12:00:00Z', catchUpHours: 12 });
  r.core.start();
  r.core.stop();
  r.clock.advance(DAY + 8 * HOUR); // Monday 20:00: Sunday 18:00 was 26 h ago
  r.restart();
  await pass(r.clock, HOUR, MIN);
  t.same(r.runs, []);
  t.match(
    r.events.find((e) => e.event === 'scheduler_slot_dropped'),
    { fields: { job: 'weekly_review', slot: '2026-11-22T18:00:00.000Z' } },
  );
  t.match(r.core.list()[0], { next_run: '2026-11-29T18:00:00.000Z' });
});

t.test('catch_up_hours 0: a run whose timer fires a little late still runs; a slot missed while down is not made up', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-20T22:00:00Z', catchUpHours: 0 });
  r.core.start();
  await pass(r.clock, 30 * MIN - 1, MIN); // 22:29:59.999
  r.clock.jump(75); // the slot's timer fires 74 ms after 22:30 by the wall clock, as on a busy machine
  await pass(r.clock, 1_000, 100);
  t.equal(r.runs.length, 1, 'the on-time run is not dropped as a missed one');
  t.match(r.runs[0], { trigger: 'schedule', slot: Date.parse('2026-11-20T22:30:00Z') });
  t.notOk(r.events.some((e) => e.event === 'scheduler_slot_dropped'));
  r.core.stop();
  r.clock.advance(DAY + HOUR); // down over the next slot: back an hour after it
  r.restart();
  await pass(r.clock, 10 * MIN, MIN);
  t.equal(r.runs.length, 1, 'nothing made up');
  t.match(
    r.events.find((e) => e.event === 'scheduler_slot_dropped'),
    { fields: { job: 'daily_reflection', slot: '2026-11-21T22:30:00.000Z' } },
  );
});
