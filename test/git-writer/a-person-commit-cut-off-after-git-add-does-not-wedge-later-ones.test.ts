// kill -9 between the person-commit's `git add -A` and its `git commit` leaves changes staged in the index (a
// deletion staged as `D `, a new note as `A `). `git add -A -- <a staged deletion>` then fails ("pathspec did not
// match any files"), so every later person-commit naming it failed too and the person's edits stayed uncommitted
// for good (found by the kill -9 crash cycles). Already-staged paths are now committed without adding them again.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { git, PERSON, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('changes a killed person-commit left staged are committed by the next one, with newer edits', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'Daily/gone.md': 'g\n', 'Daily/moved.md': 'm\n', 'Daily/edit.md': 'e1\n' });
  // the person's edits, then the `git add -A` of a person-commit the kill cut off before `git commit`
  rmSync(join(dir, 'Daily/gone.md'));
  write(dir, 'Daily/new.md', 'n\n');
  write(dir, 'Daily/later-deleted.md', 'x\n');
  git(dir, 'mv', 'Daily/moved.md', 'Daily/renamed.md');
  git(dir, 'add', '-A', '--', 'Daily/gone.md', 'Daily/new.md', 'Daily/later-deleted.md');
  // and edits made after that, while memvault was down
  rmSync(join(dir, 'Daily/later-deleted.md'));
  write(dir, 'Daily/edit.md', 'e2\n');
  t.same(
    status(dir).sort(),
    [
      'AD Daily/later-deleted.md',
      'A  Daily/new.md',
      'D  Daily/gone.md',
      'R  Daily/moved.md -> Daily/renamed.md',
      ' M Daily/edit.md',
    ].sort(),
  );

  const r = await repo.commitHumanChanges(await repo.dirtyPaths());
  if (!r.ok) return t.fail(`${r.reason}: ${r.message}`);
  t.same(r.paths, ['Daily/edit.md', 'Daily/gone.md', 'Daily/moved.md', 'Daily/new.md', 'Daily/renamed.md']);
  t.same(status(dir), [], 'nothing is left staged or dirty');
  t.equal(git(dir, 'log', '-1', '--format=%an').trim(), PERSON.name);
  t.same(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'Daily').trim().split('\n'), [
    'Daily/edit.md',
    'Daily/new.md',
    'Daily/renamed.md',
  ]);
  t.equal(git(dir, 'show', 'HEAD:Daily/edit.md'), 'e2\n');
});

t.test('a staged deletion alone is committed, not refused', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n', 'b.md': 'b\n' });
  git(dir, 'rm', '-q', 'a.md');
  const r = await repo.commitHumanChanges(['a.md']);
  t.match(r, { ok: true, paths: ['a.md'] });
  t.same(status(dir), []);
});

t.test('a staged rename whose new name was edited or deleted since is committed, not refused', async (t) => {
  // found by the kill -9 crash cycles again: `RM a -> b` staged `git add -A -- b a`, and `a`, in neither the index
  // nor the work tree, failed the whole add, so the person's edits were never committed again
  const { dir, repo } = await vaultWith(t, { 'Daily/a.md': 'a\n', 'Daily/c.md': 'c\n', 'Daily/keep.md': 'k\n' });
  git(dir, 'mv', 'Daily/a.md', 'Daily/b.md');
  git(dir, 'mv', 'Daily/c.md', 'Daily/d.md');
  write(dir, 'Daily/b.md', 'a, edited after the rename\n');
  rmSync(join(dir, 'Daily/d.md'));
  t.same(status(dir).sort(), ['RM Daily/a.md -> Daily/b.md', 'RD Daily/c.md -> Daily/d.md'].sort());

  const r = await repo.commitHumanChanges(await repo.dirtyPaths());
  if (!r.ok) return t.fail(`${r.reason}: ${r.message}`);
  t.same(r.paths, ['Daily/a.md', 'Daily/b.md', 'Daily/c.md']);
  t.same(status(dir), [], 'nothing is left staged or dirty');
  t.same(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'Daily').trim().split('\n'), ['Daily/b.md', 'Daily/keep.md']);
  t.equal(git(dir, 'show', 'HEAD:Daily/b.md'), 'a, edited after the rename\n');
});
