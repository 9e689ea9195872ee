// Wall-clock jumps (a day back, a year forward) under a daemon running in libfaketime: no duplicate or skipped
// commits, no bogus conflicts, deletes not held back, each edit indexed once, no restarts, sane lag figures.
import t from 'tap';
import { runClockJumps } from './clock-jumps.js';

t.test('wall-clock jumps cause no duplicate or skipped commits, bogus conflicts or held-back work', async (t) => {
  const r = await runClockJumps();
  t.ok(r.checks.length >= 15, `ran ${r.checks.length} checks`);
  for (const c of r.checks) t.ok(c.ok, `${c.name}: ${c.detail}`);
  t.same(r.problems, [], 'no problems');
});
