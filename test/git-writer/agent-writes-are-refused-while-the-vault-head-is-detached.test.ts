// A person who checks out a commit (or runs a rebase) leaves HEAD detached. An agent's write made then was answered
// with a commit that belonged to no branch, and left the vault — files, search — at the person's next checkout,
// reachable only through the reflog. Writes are now refused `unavailable` while HEAD is detached, before the disk
// changes, and go through again once a branch is checked out.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';

t.test('writes are refused while HEAD is detached and work again on a branch', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/a.md': '# A\n' });
  t.equal((await d.tool('vault_write', { path: 'Inbox/first.md', content: '# First\n' })).status, 200);
  const branch = git(v.dir, 'symbolic-ref', '--short', 'HEAD').trim();
  git(v.dir, 'checkout', '-q', '--detach');
  const head = git(v.dir, 'rev-parse', 'HEAD').trim();

  const w = await d.tool('vault_write', { path: 'Inbox/detached.md', content: '# Lost?\n' });
  t.equal(w.status, 503);
  t.equal(w.body.error.reason, 'unavailable');
  t.match(w.body.error.message, /HEAD is detached .* check out a branch/);
  t.notOk(existsSync(path.join(v.dir, 'Inbox/detached.md')), 'nothing written');
  const r = await d.tool('memory_remember', { content: 'The kettle is in the cupboard' });
  t.equal(r.status, 503, 'a remember too');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), head, 'no commit');

  git(v.dir, 'checkout', '-q', branch);
  const again = await d.tool('vault_write', { path: 'Inbox/detached.md', content: '# Kept\n' });
  t.equal(again.status, 200, JSON.stringify(again.body));
  t.equal(git(v.dir, 'log', '-1', '--format=%s', branch).trim(), 'memvault: write Inbox/detached.md', 'on the branch');
});
