// An undo that cannot apply cleanly is refused as `conflict`: the revert is aborted and every file is as it was.
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commitCount, git, read, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('the note changed in a later commit: conflict, no commit, no conflict markers, no revert in progress', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'line\n' });
  write(dir, 'a.md', 'agent line\n');
  const w = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  write(dir, 'a.md', 'person rewrote the same line\n');
  await repo.commitHumanChanges(['a.md']);
  write(dir, 'elsewhere.md', 'a person’s unrelated draft\n'); // must survive the abort
  const before = { head: git(dir, 'rev-parse', 'HEAD').trim(), status: status(dir), count: commitCount(dir) };
  if (!w.ok) return t.fail(w.message);

  const u = await repo.undoLast({ byAgent: 'claude' });
  t.match(u, { ok: false, reason: 'conflict', message: /a\.md changed since/ });
  t.equal(git(dir, 'rev-parse', 'HEAD').trim(), before.head);
  t.equal(commitCount(dir), before.count);
  t.same(status(dir), before.status, 'work tree and index exactly as before');
  t.equal(read(dir, 'a.md'), 'person rewrote the same line\n', 'no conflict markers left');
  t.equal(read(dir, 'elsewhere.md'), 'a person’s unrelated draft\n');
  t.notOk(existsSync(join(dir, '.git/REVERT_HEAD')), 'no revert left in progress');
  git(dir, 'fsck', '--strict');

  // The next agent commit works normally afterwards.
  write(dir, 'b.md', 'b\n');
  t.ok((await repo.commit(['b.md'], { op: 'write', paths: ['b.md'], agent: 'claude' })).ok);
});

t.test('the note has uncommitted edits: git refuses before touching anything', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'v0\n' });
  write(dir, 'a.md', 'v1\n');
  await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  write(dir, 'a.md', 'v2, being typed right now\n');
  const before = status(dir);

  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: false, reason: 'conflict', message: /uncommitted changes/ });
  t.equal(read(dir, 'a.md'), 'v2, being typed right now\n');
  t.same(status(dir), before);
  t.equal(commitCount(dir), 2);
});
