// POST /v1/reconcile (and a vault watched afresh) has the git writer read `git status`. With the vault's repository
// gone — the vault removed and made again, before the next commit makes the repository again — git status failed
// and the throw crashed the git writer (the chaos campaign's vault-removed run, CI run 97). It is logged instead, and
// the next write makes the repository again and commits as usual.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';

t.test('a rescan with no repository is logged, not a crash; the next write makes the repository again', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/a.md': '# A\n' });
  const exits: string[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.child_exited' && e.child === 'git') exits.push(JSON.stringify(e.exit));
  });
  rmSync(path.join(v.dir, '.git'), { recursive: true, force: true });
  for (let i = 0; i < 3; i++) t.equal((await d.api('POST', '/v1/reconcile', {})).status, 202);
  await d.daemon.whenCaughtUp();
  const w = await d.tool('vault_write', { path: 'Inbox/b.md', content: '# B\n' });
  t.equal(w.status, 200, JSON.stringify(w.body));
  t.equal(git(v.dir, 'log', '-1', '--format=%s').trim(), 'memvault: write Inbox/b.md', 'committed in the repository made again');
  t.same(exits, [], 'the git writer never exited');
});
