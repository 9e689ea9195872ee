// The tree and commit objects memvault writes itself (loose-objects.ts) are the ones `git mktree` and `git
// hash-object` make of the same content: same ids, readable by git, and `git fsck --strict` finds nothing wrong.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { LooseObjects, treeBody, type TreeEntry } from '../../actors/git-writer/loose-objects.js';
import { git, TEST_GIT_ENV, tempDir } from './helpers/vault-repo.js';

for (const format of ['sha1', 'sha256'] as const) {
  t.test(`${format}: a tree in git's order and a commit on it have the ids git gives them`, async (t) => {
    const dir = tempDir(t);
    git(dir, 'init', '-q', '-b', 'main', `--object-format=${format}`);
    const blob = (text: string): string =>
      execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, env: TEST_GIT_ENV, input: text, encoding: 'utf8' }).trim();
    const objects = new LooseObjects(join(dir, '.git/objects'), format);
    const sub = new Map<string, TreeEntry>([['inner.md', { mode: '100644', sha: blob('inner') }]]);
    const subSha = objects.write('tree', treeBody(sub));
    // names that sort differently as folder (`a` + `/`) and file, non-ASCII, and one beyond U+FFFF
    const entries = new Map<string, TreeEntry>([
      ['b.md', { mode: '100644', sha: blob('b') }],
      ['a', { mode: '40000', sha: subSha }],
      ['a.md', { mode: '100755', sha: blob('a.md') }],
      ['a-b.md', { mode: '100644', sha: blob('a-b') }],
      ['é.md', { mode: '100644', sha: blob('e') }],
      ['😀.md', { mode: '100644', sha: blob('smile') }],
      ['\uffff.md', { mode: '100644', sha: blob('last') }],
    ]);
    const tree = objects.write('tree', treeBody(entries));
    const mktree = [...entries].map(([name, e]) => `${e.mode === '40000' ? '040000 tree' : `${e.mode} blob`} ${e.sha}\t${name}\0`).join('');
    t.equal(tree, execFileSync('git', ['mktree', '-z'], { cwd: dir, env: TEST_GIT_ENV, input: mktree, encoding: 'utf8' }).trim());
    t.equal(objects.write('tree', treeBody(entries)), tree, 'written again: the same id (the object is only freshened)');
    const text = `tree ${tree}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\nsubject\n`;
    const commit = objects.write('commit', Buffer.from(text));
    t.equal(
      commit,
      execFileSync('git', ['hash-object', '-t', 'commit', '--stdin'], {
        cwd: dir,
        env: TEST_GIT_ENV,
        input: text,
        encoding: 'utf8',
      }).trim(),
    );
    git(dir, 'update-ref', 'HEAD', commit);
    t.match(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD'), /a\/inner\.md/);
    git(dir, 'fsck', '--strict', '--no-dangling');
  });
}
