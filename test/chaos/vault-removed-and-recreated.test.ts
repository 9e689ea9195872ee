// The vault folder removed and recreated under a running daemon: the index is kept while it is gone (searches
// answer, writes refused), and once it is back — same notes or others — the index and git follow it exactly.
import t from 'tap';
import { runVaultRemoved } from './disk-vault.js';

t.test('a vault folder removed and recreated is watched again and reconciled without losing the index meanwhile', async (t) => {
  const r = await runVaultRemoved();
  t.ok(r.checks.length >= 14, `ran ${r.checks.length} checks`);
  for (const c of r.checks) t.ok(c.ok, `${c.name}: ${c.detail}`);
  t.same(r.problems, [], 'no problems');
});
