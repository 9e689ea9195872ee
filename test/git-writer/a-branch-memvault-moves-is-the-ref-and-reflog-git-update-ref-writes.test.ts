// HEAD's branch moved by memvault itself (ref-files.ts) ends up as `git update-ref -m … HEAD new old` leaves it: the
// same ref file, the same reflog lines in the branch's and HEAD's logs (as core.logAllRefUpdates says), `git reflog`
// reads them; another git holding the lock, or HEAD moved meanwhile, changes nothing.
import { cpSync, existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseLogAll, RefFiles, type RefLogSettings } from '../../actors/git-writer/ref-files.js';
import { commitCount, git, status, tempDir, vaultWith, write } from './helpers/vault-repo.js';

const IDENT = 'Someone Else <else@example.org>'; // TEST_GIT_ENV's committer, as `git var GIT_COMMITTER_IDENT` names it
const MSG = 'memvault: agent commit';

/** A repository with two commits; HEAD on the first, the second made but on no branch. */
function twoCommits(
  t: Parameters<typeof tempDir>[0],
  format: 'sha1' | 'sha256',
  config: string[] = [],
): { dir: string; a: string; b: string } {
  const dir = tempDir(t);
  git(dir, 'init', '-q', '-b', 'main', `--object-format=${format}`);
  for (const c of config) git(dir, 'config', ...c.split(' '));
  write(dir, 'a.md', 'a\n');
  git(dir, 'add', 'a.md');
  git(dir, 'commit', '-q', '-m', 'a');
  const a = git(dir, 'rev-parse', 'HEAD').trim();
  write(dir, 'b.md', 'b\n');
  git(dir, 'add', 'b.md');
  const tree = git(dir, 'write-tree').trim();
  const b = git(dir, 'commit-tree', tree, '-p', a, '-m', 'b').trim();
  return { dir, a, b };
}

/** A reflog's lines with each line's time blanked (the two runs happen seconds apart). */
function reflog(dir: string, rel: string): string[] | null {
  const f = join(dir, '.git', rel);
  if (!existsSync(f)) return null;
  return readFileSync(f, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/> \d+ [+-]\d{4}\t/, '> T\t'));
}

function settings(dir: string): RefLogSettings {
  let v: string | null = null;
  try {
    v = git(dir, 'config', '--get', 'core.logAllRefUpdates');
  } catch {
    v = null; // unset: exit 1
  }
  return { ident: IDENT, logAll: parseLogAll(v) };
}

for (const format of ['sha1', 'sha256'] as const) {
  for (const config of [[], ['core.logAllRefUpdates false'], ['core.logAllRefUpdates always']]) {
    t.test(`${format} ${config.join(' ') || 'default config'}: the ref and reflogs are update-ref's`, async (t) => {
      const { dir, a, b } = twoCommits(t, format, config);
      if (config.length) {
        // a repository whose logs git never wrote: the setting alone decides whether they are created
        git(dir, 'reflog', 'expire', '--expire=all', '--all');
        for (const f of ['logs/HEAD', 'logs/refs/heads/main'])
          if (existsSync(join(dir, '.git', f))) writeFileSync(join(dir, '.git', f), '');
      }
      const theirs = tempDir(t);
      cpSync(dir, theirs, { recursive: true });
      git(theirs, 'update-ref', '-m', MSG, 'HEAD', b, a);

      const refs = new RefFiles(join(dir, '.git'), join(dir, '.git'), format === 'sha1' ? 40 : 64);
      t.ok(refs.usable());
      t.same(refs.head(), { kind: 'ok', ref: 'refs/heads/main', sha: a });
      t.same(refs.update('refs/heads/main', b, a, MSG, settings(dir)), { kind: 'done' });

      t.equal(readFileSync(join(dir, '.git/refs/heads/main'), 'utf8'), readFileSync(join(theirs, '.git/refs/heads/main'), 'utf8'));
      t.same(reflog(dir, 'logs/HEAD'), reflog(theirs, 'logs/HEAD'), "HEAD's reflog");
      t.same(reflog(dir, 'logs/refs/heads/main'), reflog(theirs, 'logs/refs/heads/main'), "the branch's reflog");
      t.equal(git(dir, 'reflog', '--format=%H %gs').trim(), git(theirs, 'reflog', '--format=%H %gs').trim());
      t.notOk(existsSync(join(dir, '.git/refs/heads/main.lock')) || existsSync(join(dir, '.git/HEAD.lock')), 'no lock left');
      t.same(refs.head(), { kind: 'ok', ref: 'refs/heads/main', sha: b });
      git(dir, 'fsck', '--strict', '--no-dangling');
    });
  }
}

t.test('a branch only in packed-refs is read there and written as a loose ref, as git does', async (t) => {
  const { dir, a, b } = twoCommits(t, 'sha1');
  git(dir, 'pack-refs', '--all');
  t.notOk(existsSync(join(dir, '.git/refs/heads/main')));
  const refs = new RefFiles(join(dir, '.git'), join(dir, '.git'), 40);
  t.same(refs.head(), { kind: 'ok', ref: 'refs/heads/main', sha: a });
  t.same(refs.update('refs/heads/main', b, a, MSG, settings(dir)), { kind: 'done' });
  t.equal(git(dir, 'rev-parse', 'main').trim(), b);
  t.equal(git(dir, 'reflog', '-1', '--format=%gs').trim(), MSG);
});

t.test('a lock another git holds, or HEAD moved meanwhile, changes nothing', async (t) => {
  const { dir, a, b } = twoCommits(t, 'sha1');
  const refs = new RefFiles(join(dir, '.git'), join(dir, '.git'), 40);
  const logBefore = readFileSync(join(dir, '.git/logs/HEAD'), 'utf8');
  for (const lock of ['refs/heads/main.lock', 'HEAD.lock']) {
    writeFileSync(join(dir, '.git', lock), 'theirs');
    const r = refs.update('refs/heads/main', b, a, MSG, settings(dir));
    t.equal(r.kind, 'busy', lock);
    t.match(r.kind === 'busy' ? r.message : '', /Unable to create .*\.lock': File exists/);
    t.equal(readFileSync(join(dir, '.git', lock), 'utf8'), 'theirs', "the other git's lock is left alone");
    t.equal(git(dir, 'rev-parse', 'HEAD').trim(), a);
    git(dir, 'update-ref', '-d', 'refs/heads/nothing'); // git itself still works beside it
    unlinkSync(join(dir, '.git', lock));
  }
  git(dir, 'update-ref', 'HEAD', b, a); // someone else moved HEAD after the batch read it
  const moved = refs.update('refs/heads/main', a, a, MSG, settings(dir));
  t.equal(moved.kind, 'moved');
  t.equal(git(dir, 'rev-parse', 'HEAD').trim(), b);
  t.equal(
    readFileSync(join(dir, '.git/logs/HEAD'), 'utf8').split('\n').length,
    logBefore.split('\n').length + 1,
    'only the other update logged',
  );
  t.notOk(existsSync(join(dir, '.git/refs/heads/main.lock')) || existsSync(join(dir, '.git/HEAD.lock')), 'no lock left');
});

t.test('a detached or unborn HEAD is unusual: git moves it', async (t) => {
  const { dir, a } = twoCommits(t, 'sha1');
  const refs = new RefFiles(join(dir, '.git'), join(dir, '.git'), 40);
  git(dir, 'checkout', '-q', '--detach', a);
  t.equal(refs.head().kind, 'unusual');
  git(dir, 'checkout', '-q', '--orphan', 'empty');
  t.equal(refs.head().kind, 'unusual');
});

t.test("agent commits move HEAD through memvault's own ref update: reflog readable, status clean", async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n' });
  const before = commitCount(dir);
  const logged = git(dir, 'reflog', '--format=%gs').trim().split('\n').length;
  for (let i = 0; i < 3; i++) {
    write(dir, 'n.md', `edit ${i}\n`);
    const r = await repo.commit(['n.md'], { op: 'write', paths: ['n.md'], agent: 'ada' });
    t.ok(r.ok, r.ok ? '' : r.message);
    t.equal(r.ok ? r.sha : '', git(dir, 'rev-parse', 'HEAD').trim());
  }
  t.equal(commitCount(dir), before + 3);
  const lines = git(dir, 'reflog', '--format=%gs').trim().split('\n');
  t.equal(lines.length, logged + 3);
  t.same(lines.slice(0, 3), [MSG, MSG, MSG]);
  t.same(status(dir), []);
  git(dir, 'fsck', '--strict', '--no-dangling');
});

t.test('a branch lock another git holds for a moment is waited out; one held for good fails the commit as before', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n' });
  const lock = join(dir, '.git/refs/heads/main.lock');
  writeFileSync(lock, '');
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      unlinkSync(lock);
      resolve();
    }, 30),
  );
  write(dir, 'n.md', 'one\n');
  const r = await repo.commit(['n.md'], { op: 'write', paths: ['n.md'], agent: 'ada' });
  await released;
  t.ok(r.ok, r.ok ? '' : r.message);
  t.match(git(dir, 'log', '-1', '--format=%b'), /Memvault-Agent: ada/);

  writeFileSync(lock, 'theirs');
  const head = git(dir, 'rev-parse', 'HEAD').trim();
  write(dir, 'n.md', 'two\n');
  const r2 = await repo.commit(['n.md'], { op: 'write', paths: ['n.md'], agent: 'ada' });
  t.notOk(r2.ok);
  t.equal(r2.ok ? '' : r2.reason, 'git_failed');
  t.equal(git(dir, 'rev-parse', 'HEAD').trim(), head, 'HEAD did not move');
  t.equal(readFileSync(lock, 'utf8'), 'theirs', "the other git's lock is left alone");
});
