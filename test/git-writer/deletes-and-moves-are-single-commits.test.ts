// A delete is one commit that removes the note; a move is one commit git itself sees as a rename.
import t from 'tap';
import { rmSync, renameSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { commitCount, git, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('a delete commit removes the note from the tree', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'gone.md': 'bye\n', 'stay.md': 'hi\n' });
  rmSync(join(dir, 'gone.md'));
  const r = await repo.commit(['gone.md'], { op: 'delete', paths: ['gone.md'], agent: 'claude', reason: 'duplicate' });
  if (!r.ok) return t.fail(r.message);
  t.equal(commitCount(dir), 2);
  t.equal(git(dir, 'log', '-1', '--format=%s').trim(), 'memvault: delete gone.md');
  t.equal(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim(), 'D\tgone.md');
  t.same(git(dir, 'ls-files').trim().split('\n'), ['stay.md']);
  t.same(status(dir), []);
});

t.test('a move is one commit of both paths, shown by git as a rename', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'Inbox/idea.md': 'an idea worth keeping\nwith two lines\n' });
  mkdirSync(join(dir, 'Projects'));
  renameSync(join(dir, 'Inbox/idea.md'), join(dir, 'Projects/idea.md'));
  const r = await repo.commit(['Inbox/idea.md', 'Projects/idea.md'], {
    op: 'move',
    paths: ['Inbox/idea.md', 'Projects/idea.md'],
    agent: 'claude',
  });
  if (!r.ok) return t.fail(r.message);
  t.equal(commitCount(dir), 2);
  t.equal(git(dir, 'log', '-1', '--format=%s').trim(), 'memvault: move Inbox/idea.md → Projects/idea.md');
  t.equal(git(dir, 'show', '-M', '--name-status', '--format=', 'HEAD').trim(), 'R100\tInbox/idea.md\tProjects/idea.md');
  t.same(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Path,valueonly)').trim().split('\n'), [
    'Inbox/idea.md',
    'Projects/idea.md',
  ]);
  t.same(status(dir), []);

  // And back again: the source is now untracked-new for git, the target tracked.
  renameSync(join(dir, 'Projects/idea.md'), join(dir, 'Inbox/idea.md'));
  const back = await repo.commit(['Projects/idea.md', 'Inbox/idea.md'], {
    op: 'move',
    paths: ['Projects/idea.md', 'Inbox/idea.md'],
    agent: 'claude',
  });
  t.ok(back.ok);
  t.equal(git(dir, 'show', '-M', '--name-status', '--format=', 'HEAD').trim(), 'R100\tProjects/idea.md\tInbox/idea.md');
  git(dir, 'fsck', '--strict');
});

t.test('deleting a note a person committed by hand (unknown to memvault) still records the delete', async (t) => {
  const { dir, repo } = await vaultWith(t, {});
  write(dir, 'n/hand.md', 'committed with plain git\n');
  git(dir, 'add', 'n/hand.md');
  git(dir, 'commit', '-q', '-m', 'by hand');
  rmSync(join(dir, 'n/hand.md'));
  const r = await repo.commit(['n/hand.md'], { op: 'delete', paths: ['n/hand.md'], agent: 'claude' });
  if (!r.ok) return t.fail(r.message);
  t.equal(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim(), 'D\tn/hand.md');
  t.same(status(dir), []);
});
