// `vault_undo_last` used to start a `git status` before every undo, to commit a person's edit the OS had not reported
// yet (~10 ms, one process). Now the revert runs at once; git refuses before touching anything when a note it would
// change holds such an edit, and only then does the undo read git status, commit the edit as the person's, and run
// again — weighing the edit as a later change, as before.
import { appendFileSync, linkSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { worktreeChange } from './helpers/worktree-changes.js';
import { daemonOn, git } from '../helpers/daemon.js';
import { gitOnPath } from './helpers/git-on-path.js';
import { tempDir } from './helpers/vault-repo.js';

t.test('an undo in a clean work tree starts no git status', async (t) => {
  const cmds = gitOnPath(t);
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n' });
  const echoed = worktreeChange(d, 'Inbox/plan.md');
  t.equal((await d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n' }, 'planner')).status, 200);
  await echoed;
  await d.daemon.handles.git!.onIdle();
  cmds.clear();

  const u = await d.tool('vault_undo_last', {}, 'planner');
  t.equal(u.status, 200, JSON.stringify(u.body));
  t.same(u.body.paths, ['Inbox/plan.md']);
  t.same(cmds.commands(), ['log', 'revert'], 'the history read and the revert: nothing else');
  t.equal(git(v.dir, 'status', '--porcelain'), '', 'work tree and index agree with the undo commit');
});

t.test('a person’s edit no OS event reported is committed as theirs, then the undo weighs it', async (t) => {
  const cmds = gitOnPath(t);
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n' }, 'writes:\n  human_quiet_ms: 600000\n');
  const echoed = worktreeChange(d, 'Inbox/plan.md');
  t.equal((await d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n\nfrom the agent\n' }, 'planner')).status, 200);
  await echoed; // the write's own OS event is in: it cannot carry the person's edit below
  await d.daemon.handles.git!.onIdle();
  // a hard link from outside the vault: the edit reaches the note with no event in the watched folder
  const alias = path.join(tempDir(t, 'memvault-outside-'), 'plan.md');
  linkSync(path.join(v.dir, 'Inbox/plan.md'), alias);
  appendFileSync(alias, 'and a line the person added\n');
  cmds.clear();

  const u = await d.tool('vault_undo_last', {}, 'planner');
  t.equal(u.status, 409);
  t.match(u.body.error, { reason: 'conflict', message: /Inbox\/plan\.md changed since; nothing was changed/ });
  t.match(cmds.commands(), ['log', 'revert', 'status'], 'git refused the first revert; then git status named the edit');
  t.equal(git(v.dir, 'log', '-1', '--format=%an').trim(), 'vault owner', 'the person’s edit is committed, as theirs');
  t.equal(git(v.dir, 'status', '--porcelain'), '', 'the tree is clean');
  t.equal(git(v.dir, 'show', 'HEAD:Inbox/plan.md'), '# Plan\n\nfrom the agent\nand a line the person added\n', 'both texts kept');
});
