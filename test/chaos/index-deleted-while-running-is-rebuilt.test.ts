// The index file deleted while the daemon runs is detected within about a second and rebuilt from the vault, with
// searches answering meanwhile and the gateway reading the new file afterwards.
import t from 'tap';
import { runIndexDeleted } from './disk-index.js';

t.test('an index file deleted while running is detected and rebuilt from the vault', async (t) => {
  const r = await runIndexDeleted();
  t.ok(r.checks.length >= 7, `ran ${r.checks.length} checks`);
  for (const c of r.checks) t.ok(c.ok, `${c.name}: ${c.detail}`);
  t.same(r.problems, [], 'no problems');
});
