// Opening a plain folder makes it a repository: existing notes are committed as the person, .memvault/ is ignored locally.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from '../../actors/git-writer/git-repo.js';
import { commitCount, git, openRepo, PERSON, status, tempDir, write } from './helpers/vault-repo.js';

t.test('a plain folder is initialised on main and its notes are imported as the person', async (t) => {
  const dir = tempDir(t);
  write(dir, 'Inbox/idea.md', '# Idea\n');
  write(dir, 'top.md', 'top\n');
  write(dir, 'picture.png', 'not a note');
  write(dir, '.memvault/index.sqlite', 'state');

  const repo = await openRepo(t, dir);
  t.equal(repo.root, dir);
  t.equal(git(dir, 'rev-parse', '--show-toplevel').trim(), dir, 'the folder is the top of its own work tree');
  t.equal(git(dir, 'symbolic-ref', '--short', 'HEAD').trim(), 'main');
  t.equal(commitCount(dir), 1);
  t.equal(
    git(dir, 'log', '-1', '--format=%s|%an <%ae>|%cn <%ce>').trim(),
    `memvault: initial import|${PERSON.name} <${PERSON.email}>|${PERSON.name} <${PERSON.email}>`,
  );
  t.same(git(dir, 'ls-files').trim().split('\n'), ['Inbox/idea.md', 'top.md'], 'only notes are imported');
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Op,valueonly)').trim(), 'import');

  t.match(readFileSync(join(dir, '.git/info/exclude'), 'utf8'), /^\/\.memvault\/$/m, 'the exclusion is local to this clone');
  t.equal(git(dir, 'check-ignore', '.memvault/index.sqlite').trim(), '.memvault/index.sqlite');
  t.notOk(
    status(dir).some((l) => l.includes('.memvault')),
    'git status never shows memvault state',
  );
  t.same(status(dir), ['?? picture.png'], 'non-notes stay untracked, not hidden');
  git(dir, 'fsck', '--strict');
});

t.test('reopening adds no commit and no second exclude line', async (t) => {
  const dir = tempDir(t);
  write(dir, 'a.md', 'a\n');
  await openRepo(t, dir);
  await openRepo(t, dir);
  t.equal(commitCount(dir), 1);
  t.equal(
    readFileSync(join(dir, '.git/info/exclude'), 'utf8')
      .split('\n')
      .filter((l) => l === '/.memvault/').length,
    1,
  );
});

t.test('an empty folder gets an empty initial commit so undo and history have a root', async (t) => {
  const dir = tempDir(t);
  await openRepo(t, dir);
  t.equal(commitCount(dir), 1);
  t.equal(git(dir, 'ls-files').trim(), '');
});

t.test('an existing repository with history is used as it is', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q', '-b', 'trunk');
  write(dir, 'old.md', 'old\n');
  git(dir, 'add', 'old.md');
  git(dir, 'commit', '-q', '-m', 'my own history');
  await openRepo(t, dir);
  t.same(git(dir, 'log', '--format=%s').trim().split('\n'), ['my own history']);
  t.equal(git(dir, 'symbolic-ref', '--short', 'HEAD').trim(), 'trunk');
});

t.test('a folder inside another repository is refused, not nested', async (t) => {
  const outer = tempDir(t);
  git(outer, 'init', '-q', '-b', 'main');
  write(outer, 'vault/a.md', 'a\n');
  const r = await GitRepo.open(join(outer, 'vault'), { author: { name: 'm', email: 'm@x' }, person: { name: 'p', email: 'p@x' } });
  t.notOk(r instanceof GitRepo);
  if (r instanceof GitRepo) return;
  t.equal(r.reason, 'inside_repo');
  t.match(r.message, outer);
  t.notOk(existsSync(join(outer, 'vault/.git')), 'no nested repository was created');
  t.equal(git(outer, 'rev-list', '--all').trim(), '', 'the outer repository got no commit');
});

t.test('a missing vault folder is a failure, not a crash', async (t) => {
  const r = await GitRepo.open(join(tempDir(t), 'nope'), { author: { name: 'm', email: 'm@x' }, person: { name: 'p', email: 'p@x' } });
  t.match(r, { ok: false, reason: 'git_failed', message: /nope/ });
});
