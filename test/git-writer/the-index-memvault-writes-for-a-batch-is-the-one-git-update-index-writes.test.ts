// git's index brought in line by memvault's own writer (index-file.ts) must be exactly what `git update-index -z
// --index-info` makes of the same changes — entries, the cache of trees git builds commits from, its checksum — and it
// must leave an index it does not understand, or one another git holds, alone.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { updateIndex, type IndexChange } from '../../actors/git-writer/index-file.js';
import { git, TEST_GIT_ENV, tempDir, write } from './helpers/vault-repo.js';

/** A repository with notes in folders, committed, so its index has a valid cache of trees (the TREE extension). */
function repoWithNotes(t: Parameters<typeof tempDir>[0], format: 'sha1' | 'sha256' = 'sha1'): string {
  const dir = tempDir(t);
  git(dir, 'init', '-q', '-b', 'main', `--object-format=${format}`);
  for (const p of ['a.md', 'Inbox/one.md', 'Inbox/two.md', 'Deep/er/x.md', 'Deep/er/y.md', 'Deep/z.md', 'zz.md', 'a-b.md', 'a/c.md'])
    write(dir, p, `${p}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'notes');
  return dir;
}

/** The changes a batch makes: a note edited, one added in a new folder, one removed, one with a name git escapes. */
function someChanges(dir: string): IndexChange[] {
  write(dir, 'Inbox/one.md', 'edited\n');
  write(dir, 'New/folder/note.md', 'new\n');
  write(dir, 'naïve "quoted".md', 'odd name\n');
  const blob = (p: string): string => git(dir, 'hash-object', '-w', '--', p).trim();
  return [
    { path: 'Inbox/one.md', entry: { mode: '100644', sha: blob('Inbox/one.md') } },
    { path: 'New/folder/note.md', entry: { mode: '100755', sha: blob('New/folder/note.md') } },
    { path: 'naïve "quoted".md', entry: { mode: '100644', sha: blob('naïve "quoted".md') } },
    { path: 'Deep/er/x.md', entry: null },
  ];
}

function updateIndexByGit(dir: string, changes: IndexChange[], hexLen: number): void {
  const zero = '0'.repeat(hexLen);
  const input = changes.map((c) => (c.entry === null ? `0 ${zero}\t${c.path}\0` : `${c.entry.mode} ${c.entry.sha}\t${c.path}\0`)).join('');
  execFileSync('git', ['update-index', '-z', '--index-info'], { cwd: dir, env: TEST_GIT_ENV, input });
}

for (const format of ['sha1', 'sha256'] as const) {
  t.test(`${format}: the same entries and the same trees as git update-index, and git reads it back`, async (t) => {
    const mine = repoWithNotes(t, format);
    const hexLen = format === 'sha256' ? 64 : 40;
    git(mine, 'write-tree'); // the cache of trees is complete before the batch
    const theirs = tempDir(t);
    cpSync(mine, theirs, { recursive: true });
    const changes = someChanges(mine);
    someChanges(theirs);
    t.same(updateIndex(join(mine, '.git/index'), changes, hexLen), { kind: 'done' });
    updateIndexByGit(theirs, changes, hexLen);
    t.equal(git(mine, 'ls-files', '-s', '-z'), git(theirs, 'ls-files', '-s', '-z'), 'the same entries, in the same order');
    // write-tree builds from the cache of trees: a folder left marked valid after its note changed gives a wrong tree
    t.equal(git(mine, 'write-tree'), git(theirs, 'write-tree'), 'the same tree for a commit');
    t.equal(
      git(mine, 'status', '--porcelain', '--untracked-files=no').split('\n').sort().join('\n'),
      git(theirs, 'status', '--porcelain', '--untracked-files=no').split('\n').sort().join('\n'),
    );
    t.notOk(existsSync(join(mine, '.git/index.lock')), 'the lock is gone');
  });
}

t.test('a file and a folder of the same name never stay in the index together', async (t) => {
  const dir = repoWithNotes(t);
  const theirs = tempDir(t);
  cpSync(dir, theirs, { recursive: true });
  const sha = git(dir, 'hash-object', '-w', '--stdin').trim();
  // `a.md` becomes a folder, and the folder `a` a file
  const changes: IndexChange[] = [
    { path: 'a.md/inner.md', entry: { mode: '100644', sha } },
    { path: 'a', entry: { mode: '100644', sha } },
  ];
  t.same(updateIndex(join(dir, '.git/index'), changes, 40), { kind: 'done' });
  updateIndexByGit(theirs, changes, 40);
  t.equal(git(dir, 'ls-files', '-s'), git(theirs, 'ls-files', '-s'));
  t.notMatch(git(dir, 'ls-files'), /^a\/c\.md$/m);
});

t.test('an index another git holds is reported busy and left as it was', async (t) => {
  const dir = repoWithNotes(t);
  const before = readFileSync(join(dir, '.git/index'));
  writeFileSync(join(dir, '.git/index.lock'), '');
  const r = updateIndex(join(dir, '.git/index'), someChanges(dir), 40);
  t.equal(r.kind, 'busy');
  t.match(r, { message: /index\.lock': File exists/ });
  t.ok(readFileSync(join(dir, '.git/index')).equals(before), 'the index is untouched');
  t.ok(existsSync(join(dir, '.git/index.lock')), 'and the other git’s lock too');
});

t.test('an index of version 4 or a split index is not touched: the caller runs git', async (t) => {
  for (const args of [['--index-version', '4'], ['--split-index']]) {
    const dir = repoWithNotes(t);
    git(dir, 'update-index', ...args);
    const before = readFileSync(join(dir, '.git/index'));
    const r = updateIndex(join(dir, '.git/index'), someChanges(dir), 40);
    t.equal(r.kind, 'unsupported', args.join(' '));
    t.ok(readFileSync(join(dir, '.git/index')).equals(before), 'the index is untouched');
    t.notOk(existsSync(join(dir, '.git/index.lock')), 'and not locked');
  }
});
