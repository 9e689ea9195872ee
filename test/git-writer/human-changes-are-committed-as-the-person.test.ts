// Edits made outside memvault are committed under the person's name, notes only, never .memvault/ state.
import t from 'tap';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git, PERSON, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('all changed notes (new, modified, deleted, renamed) go into one commit by the person', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'edit.md': 'v1\n', 'drop.md': 'x\n', 'old name.md': 'renamed by hand\n' });
  write(dir, 'edit.md', 'v2\n');
  rmSync(join(dir, 'drop.md'));
  write(dir, 'Daily/2024-05-01.md', 'journal\n');
  renameSync(join(dir, 'old name.md'), join(dir, 'new name.md'));
  write(dir, 'image.png', 'binary-ish');
  write(dir, '.memvault/state.json', '{}');

  t.same((await repo.dirtyPaths()).sort(), ['Daily/2024-05-01.md', 'drop.md', 'edit.md', 'image.png', 'new name.md', 'old name.md']);

  const r = await repo.commitHumanChanges();
  if (!r.ok) return t.fail(r.message);
  t.same(r.paths, ['Daily/2024-05-01.md', 'drop.md', 'edit.md', 'new name.md', 'old name.md']);
  t.equal(git(dir, 'rev-parse', 'HEAD').trim(), r.sha);
  t.equal(
    git(dir, 'log', '-1', '--format=%s|%an <%ae>|%cn <%ce>').trim(),
    `memvault: human edit of 5 notes|${PERSON.name} <${PERSON.email}>|${PERSON.name} <${PERSON.email}>`,
  );
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Op,valueonly)').trim(), 'human');
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Agent)').trim(), '', 'no agent on a person’s commit');
  t.same(git(dir, 'show', '-M', '--name-status', '--format=', 'HEAD').trim().split('\n').sort(), [
    'A\tDaily/2024-05-01.md',
    'D\tdrop.md',
    'M\tedit.md',
    'R100\told name.md\tnew name.md',
  ]);
  t.same(status(dir), ['?? image.png'], 'a non-note is left for the person to decide');
  t.match(await repo.commitHumanChanges(), { ok: false, reason: 'nothing_to_commit' });
});

t.test('with paths, only those are committed; other edits wait for their own commit', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n', 'b.md': 'b\n' });
  write(dir, 'a.md', 'a2\n');
  write(dir, 'b.md', 'b2\n');
  const r = await repo.commitHumanChanges(['a.md', 'untouched.md']);
  t.match(r, { ok: true, paths: ['a.md'] });
  t.equal(git(dir, 'log', '-1', '--format=%s').trim(), 'memvault: human edit of 1 note');
  t.same(status(dir), [' M b.md']);
  t.match(await repo.commitHumanChanges(['untouched.md']), { ok: false, reason: 'nothing_to_commit' });
});

t.test('a person’s edit committed by the person is not an agent change to undo', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n' });
  write(dir, 'a.md', 'a2\n');
  await repo.commitHumanChanges();
  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: false, reason: 'nothing_to_undo' });
  t.equal(git(dir, 'show', 'HEAD:a.md'), 'a2\n');
});
