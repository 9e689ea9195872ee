// A slot that comes while the job must idle (the LLM unreachable) is recorded as skipped with the reason and owed;
// when the LLM is back it runs once, within catch_up_hours; a run that failed for a passing reason is owed too.
import t from 'tap';
import { coreRig, cron, flush, HOUR, MIN, pass } from './helpers/core-rig.js';

const SLOT = Date.parse('2026-11-22T22:30:00Z');

t.test('idle at its slot: skipped with the reason, then run once when the LLM is back', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:00Z' });
  r.idle.set('daily_reflection', 'llm_unreachable: the endpoint does not answer');
  r.core.start();
  await pass(r.clock, 2 * MIN);
  t.same(r.runs, [], 'no run while idle');
  t.match(r.core.list()[0], {
    state: 'idle',
    reason: /llm_unreachable/,
    last_run: { outcome: 'skipped', reason: /llm_unreachable/, trigger: 'schedule' },
  });
  r.idle.delete('daily_reflection');
  r.core.poke();
  await flush();
  await flush();
  t.equal(r.runs.length, 1);
  t.match(r.runs[0], { slot: SLOT, trigger: 'catch_up' });
  r.core.poke();
  await pass(r.clock, 10 * MIN, MIN);
  t.equal(r.runs.length, 1, 'owed once, run once');
});

t.test('an owed slot older than catch_up_hours is dropped when the LLM comes back', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:00Z', catchUpHours: 2 });
  r.idle.set('daily_reflection', 'llm_unreachable: down');
  r.core.start();
  await pass(r.clock, 3 * HOUR, 10 * MIN);
  r.idle.delete('daily_reflection');
  r.core.poke();
  await pass(r.clock, MIN);
  t.same(r.runs, []);
  t.ok(r.events.some((e) => e.event === 'scheduler_slot_dropped' && e.fields['owed'] === true));
});

t.test('a run that failed because the LLM went away is owed and made up once', async (t) => {
  const r = coreRig(t, [cron('daily_reflection', '30 22 * * *')], { start: '2026-11-22T22:29:00Z' });
  r.answer = { outcome: 'failed', path: null, commit: null, reason: 'llm_unreachable: ECONNREFUSED', results: [], retry: true };
  r.core.start();
  await pass(r.clock, 2 * MIN);
  t.equal(r.runs.length, 1);
  r.answer = { outcome: 'written', path: 'Reflections/2026-11-22.md', commit: 'c0ffee', reason: null, results: [] };
  r.core.poke();
  await flush();
  await flush();
  t.equal(r.runs.length, 2);
  t.match(r.runs[1], { slot: SLOT, trigger: 'catch_up' });
  await pass(r.clock, 10 * MIN, MIN);
  t.equal(r.runs.length, 2);
});
