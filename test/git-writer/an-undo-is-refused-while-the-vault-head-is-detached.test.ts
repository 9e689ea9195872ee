// Writes are refused while the vault's HEAD is detached (agent-writes-are-refused-while-the-vault-head-is-detached),
// but an undo went through: `git revert` committed on the detached HEAD, the agent was told the change was undone, and
// the person's next `git switch main` left the undo behind and put the note back. An undo is now refused
// `unavailable` the same way, before anything changes, and works again once a branch is checked out.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';

t.test('vault_undo_last is refused while HEAD is detached and undoes on the branch again', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/a.md': '# A\n' });
  t.equal((await d.tool('vault_write', { path: 'Inbox/first.md', content: '# First\n' }, 'planner')).status, 200);
  const branch = git(v.dir, 'symbolic-ref', '--short', 'HEAD').trim();
  git(v.dir, 'checkout', '-q', '--detach');
  const head = git(v.dir, 'rev-parse', 'HEAD').trim();

  const u = await d.tool('vault_undo_last', {}, 'planner');
  t.equal(u.status, 503);
  t.match(u.body.error, { reason: 'unavailable', message: /HEAD is detached .* check out a branch .* then undo again/ });
  t.ok(existsSync(path.join(v.dir, 'Inbox/first.md')), 'the note is still there');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), head, 'no commit');
  const run = await d.api('POST', '/v1/dream/undo', { run: 'dream-20261129T000000Z-abcdef' });
  t.equal(run.status, 503, 'a dream run’s undo too');
  t.match(run.body.error, { message: /HEAD is detached .* then undo the run again/ }, JSON.stringify(run.body));

  git(v.dir, 'checkout', '-q', branch);
  const again = await d.tool('vault_undo_last', {}, 'planner');
  t.equal(again.status, 200, JSON.stringify(again.body));
  t.notOk(existsSync(path.join(v.dir, 'Inbox/first.md')), 'undone');
  t.equal(git(v.dir, 'log', '-1', '--format=%s', branch).trim(), 'memvault: undo Inbox/first.md', 'on the branch');
});
