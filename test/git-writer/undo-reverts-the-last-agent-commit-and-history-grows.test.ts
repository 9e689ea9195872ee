// Undo is `git revert`: a new commit restores the note, the undone commit stays in history, and nothing is reset.
import t from 'tap';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { commitCount, git, MEMVAULT, read, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('undo restores the note with a revert commit that names what it reverts', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'original\n' });
  write(dir, 'a.md', 'agent rewrote it\n');
  const w = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  if (!w.ok) return t.fail(w.message);

  const u = await repo.undoLast({ byAgent: 'claude', reason: 'wrong note' });
  if (!u.ok) return t.fail(u.message);
  t.equal(u.reverted, w.sha);
  t.same(u.paths, ['a.md']);
  t.equal(read(dir, 'a.md'), 'original\n', 'content restored');
  t.equal(commitCount(dir), 3, 'history grew: import, write, undo');
  t.same(git(dir, 'log', '--format=%H %s').trim().split('\n'), [
    `${u.sha} memvault: undo a.md`,
    `${w.sha} memvault: write a.md`,
    `${git(dir, 'rev-list', '--max-parents=0', 'HEAD').trim()} memvault: initial import`,
  ]);
  t.equal(
    git(dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>').trim(),
    `${MEMVAULT.name} <${MEMVAULT.email}>|${MEMVAULT.name} <${MEMVAULT.email}>`,
  );
  t.equal(
    git(dir, 'log', '-1', '--format=%(trailers:only,unfold)').trim(),
    `Memvault-Op: undo\nMemvault-Path: a.md\nMemvault-Agent: claude\nMemvault-Reason: wrong note\nMemvault-Reverts: ${w.sha}`,
  );
  t.equal(git(dir, 'diff', `${w.sha}^`, 'HEAD').trim(), '', 'the tree is back to before the write');
  t.equal(git(dir, 'show', `${w.sha}:a.md`), 'agent rewrote it\n', 'the undone version is still in history');
  t.same(status(dir), []);
  t.notOk(git(dir, 'reflog', '--format=%gs').includes('reset'), 'no reset anywhere in the reflog');
  git(dir, 'fsck', '--strict');
});

t.test('undo twice undoes two changes, newest first; a third finds nothing', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'v0\n' });
  write(dir, 'a.md', 'v1\n');
  const w1 = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  write(dir, 'b.md', 'new note\n');
  const w2 = await repo.commit(['b.md'], { op: 'write', paths: ['b.md'], agent: 'claude' });
  if (!w1.ok || !w2.ok) return t.fail('setup');

  const u1 = await repo.undoLast({ byAgent: 'claude' });
  t.match(u1, { ok: true, reverted: w2.sha });
  t.equal(read(dir, 'b.md'), null, 'undoing a create removes the note');
  const u2 = await repo.undoLast({ byAgent: 'claude' });
  t.match(u2, { ok: true, reverted: w1.sha });
  t.equal(read(dir, 'a.md'), 'v0\n');
  const u3 = await repo.undoLast({ byAgent: 'claude' });
  t.match(u3, { ok: false, reason: 'nothing_to_undo' });
  t.equal(commitCount(dir), 5);
  t.same(status(dir), []);
  git(dir, 'fsck', '--strict');
});

t.test('undo of a delete brings the note back; undo of a move moves it back', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'keep.md': 'precious\n', 'from.md': 'moving\n' });
  rmSync(join(dir, 'keep.md'));
  await repo.commit(['keep.md'], { op: 'delete', paths: ['keep.md'], agent: 'claude' });
  git(dir, 'mv', 'from.md', 'to.md'); // a person-style rename on disk, committed by memvault as the agent's move
  const mv = await repo.commit(['from.md', 'to.md'], { op: 'move', paths: ['from.md', 'to.md'], agent: 'claude' });
  t.ok(mv.ok);

  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: true, paths: ['from.md', 'to.md'] });
  t.equal(read(dir, 'from.md'), 'moving\n');
  t.equal(read(dir, 'to.md'), null);
  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: true, paths: ['keep.md'] });
  t.equal(read(dir, 'keep.md'), 'precious\n');
  t.same(status(dir), []);

  // memvault's own bookkeeping follows: the restored note is tracked again, so a later write is one clean commit.
  write(dir, 'keep.md', 'edited after undo\n');
  const again = await repo.commit(['keep.md'], { op: 'write', paths: ['keep.md'], agent: 'claude' });
  t.ok(again.ok);
  t.same(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim(), 'M\tkeep.md');
});

t.test('a person reverting an undo with plain git makes the change undoable again', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'v0\n' });
  write(dir, 'a.md', 'v1\n');
  const w = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  const u = await repo.undoLast({ byAgent: 'claude' });
  if (!w.ok || !u.ok) return t.fail('setup');
  git(dir, 'revert', '--no-edit', u.sha); // "redo", by hand
  t.equal(read(dir, 'a.md'), 'v1\n');
  const again = await repo.undoLast({ byAgent: 'claude' });
  t.match(again, { ok: true, reverted: w.sha });
  t.equal(read(dir, 'a.md'), 'v0\n');
});

t.test('undo of a change a person already put back records an empty undo and moves on next time', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'v0\n', 'b.md': 'b0\n' });
  write(dir, 'b.md', 'b1\n');
  const wb = await repo.commit(['b.md'], { op: 'write', paths: ['b.md'], agent: 'claude' });
  write(dir, 'a.md', 'v1\n');
  const wa = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  write(dir, 'a.md', 'v0\n');
  const h = await repo.commitHumanChanges(['a.md']);
  if (!wa.ok || !wb.ok || !h.ok) return t.fail('setup');

  const u = await repo.undoLast({ byAgent: 'claude' });
  if (!u.ok) return t.fail(u.message);
  t.equal(u.reverted, wa.sha);
  t.equal(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim(), '', 'an empty commit');
  t.match(git(dir, 'log', '-1', '--format=%B'), /already undone/);
  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: true, reverted: wb.sha });
  t.equal(read(dir, 'b.md'), 'b0\n');
});
