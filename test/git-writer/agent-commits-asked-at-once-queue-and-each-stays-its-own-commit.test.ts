// Agent commits asked for at once queue up: each is its own commit, in call order, with the index and tree exact.
import t from 'tap';
import { chmodSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CommitMessage } from '../../actors/git-writer/git-repo.js';
import { commitCount, git, MEMVAULT, openRepo, status, tempDir, write } from './helpers/vault-repo.js';

/** git processes started, by subcommand, from a GIT_TRACE2_EVENT file. */
function gitCommands(trace: string): string[] {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; argv?: string[] })
    .filter((e) => e.event === 'start')
    .map((e) => (e.argv ?? []).slice(1).find((a) => !a.startsWith('-') && !a.includes('=')) ?? '?');
}

t.test('twelve concurrent writes of every kind: one commit each, in call order, index and tree exact', async (t) => {
  const dir = tempDir(t);
  for (const p of ['edit.md', 'twice.md', 'same.md', 'gone.md', 'from.md', 'mine.md']) write(dir, p, `${p} v1\n`);
  write(dir, '.gitignore', 'private/\n');
  const trace = join(tempDir(t, 'memvault-trace-'), 'trace.json');
  const repo = await openRepo(t, dir, { env: { GIT_TRACE2_EVENT: trace } });
  rmSync(trace);
  write(dir, 'mine.md', 'a person is typing here\n'); // must stay theirs

  const ops: [string[], CommitMessage['op'], () => void][] = [
    [['first.md'], 'write', () => write(dir, 'first.md', 'starts the queue\n')],
    [['edit.md'], 'write', () => write(dir, 'edit.md', 'edit v2\n')],
    [['new/deep note.md'], 'write', () => write(dir, 'new/deep note.md', 'new\n')],
    [['twice.md'], 'write', () => write(dir, 'twice.md', 'twice v2\n')],
    [['same.md'], 'write', () => {}], // unchanged: nothing to commit
    [['gone.md'], 'delete', () => rmSync(join(dir, 'gone.md'))],
    [['from.md', 'to.md'], 'move', () => renameSync(join(dir, 'from.md'), join(dir, 'to.md'))],
    [['private/secret.md'], 'write', () => write(dir, 'private/secret.md', 'hidden\n')],
    [['-dash #tag "q".md'], 'write', () => write(dir, '-dash #tag "q".md', 'odd\n')],
    [['new\nline.md'], 'write', () => write(dir, 'new\nline.md', 'odd\n')],
    [['exec.md'], 'write', () => (write(dir, 'exec.md', 'x\n'), chmodSync(join(dir, 'exec.md'), 0o755))],
    [['last.md'], 'write', () => write(dir, 'last.md', 'ends the queue\n')],
  ];
  for (const [, , prep] of ops) prep();
  const results = await Promise.all(ops.map(([paths, op], i) => repo.commit(paths, { op, paths, agent: `agent-${i}` })));
  // twice.md again, after the first round
  write(dir, 'twice.md', 'twice v3\n');
  const again = await repo.commit(['twice.md'], { op: 'write', paths: ['twice.md'], agent: 'agent-3' });

  t.match(results[4], { ok: false, reason: 'nothing_to_commit' });
  t.match(results[7], { ok: false, reason: 'ignored' });
  const made = results.map((r, i) => ({ r, i })).filter(({ r }) => r.ok);
  t.equal(made.length, 10);
  t.equal(commitCount(dir), 1 + 10 + 1);

  // History holds the commits in call order, each touching exactly its own paths.
  const shas = git(dir, 'rev-list', '--reverse', 'HEAD~11..HEAD').trim().split('\n');
  t.same(shas, [...made.map(({ r }) => (r.ok ? r.sha : '')), again.ok ? again.sha : 'x']);
  for (const { r, i } of made) {
    if (!r.ok) continue;
    const [paths, op] = ops[i]!;
    const changed = git(dir, 'show', '-z', '--no-renames', '--name-only', '--format=', r.sha).split('\0').filter(Boolean).sort();
    t.same(changed, [...paths].sort(), `${op} ${JSON.stringify(paths)} is alone in its commit`);
    t.equal(
      git(dir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%(trailers:key=Memvault-Agent,valueonly)', r.sha).trim(),
      `${MEMVAULT.name} <${MEMVAULT.email}>|${MEMVAULT.name} <${MEMVAULT.email}>|agent-${i}`,
    );
    t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Op,valueonly)', r.sha).trim(), op);
  }
  t.equal(git(dir, 'show', 'HEAD:twice.md'), 'twice v3\n');
  t.match(git(dir, 'ls-tree', 'HEAD', 'exec.md'), /^100755 blob /, 'the exec bit is recorded as `git add` would');
  t.equal(git(dir, 'show', `${results[3]!.ok ? results[3]!.sha : ''}:twice.md`), 'twice v2\n');
  t.equal(git(dir, 'show', `${made[0]!.r.ok ? made[0]!.r.sha : ''}:first.md`), 'starts the queue\n');
  t.same(git(dir, 'show', '-M', '--name-status', '--format=', results[6]!.ok ? results[6]!.sha : '').trim(), 'R100\tfrom.md\tto.md');

  // The index matches HEAD exactly; the person's edit and the ignored note are untouched.
  t.same(status(dir).sort(), [' M mine.md', '?? .gitignore'], 'clean but for the person’s own edit');
  t.equal(git(dir, 'diff', '--cached', '--name-only').trim(), '', 'nothing staged');
  t.equal(git(dir, 'show', ':mine.md'), 'mine.md v1\n');
  t.equal(git(dir, 'check-ignore', 'private/secret.md').trim(), 'private/secret.md');
  git(dir, 'fsck', '--strict');

  const cmds = gitCommands(trace);
  // 13 asked, made by long-lived git processes; only the note whose name holds a newline (which hash-object's line
  // protocol cannot carry) goes through `git add` + `git commit`
  t.equal(cmds.filter((c) => c === 'commit').length, 1, 'no `git commit` process but for the newline path');
  t.ok(cmds.length < 13, 'fewer git processes than commits asked');
  t.comment(`git processes for 11 commits made: ${cmds.length} (${cmds.join(' ')})`);
});

t.test('an undo queued between writes stays between them', async (t) => {
  const dir = tempDir(t);
  write(dir, 'a.md', 'a0\n');
  const repo = await openRepo(t, dir);
  write(dir, 'a.md', 'a1\n');
  write(dir, 'b.md', 'b1\n');
  write(dir, 'c.md', 'c1\n');
  const [a, b, u, c] = await Promise.all([
    repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'x' }),
    repo.commit(['b.md'], { op: 'write', paths: ['b.md'], agent: 'x' }),
    repo.undoLast({ byAgent: 'x' }),
    repo.commit(['c.md'], { op: 'write', paths: ['c.md'], agent: 'x' }),
  ]);
  t.ok(a.ok && c.ok);
  t.match(u, { ok: true, reverted: b.ok ? b.sha : 'none' }, 'the undo reverts the write queued just before it');
  t.same(git(dir, 'log', '--format=%s', '-4').trim().split('\n'), [
    'memvault: write c.md',
    'memvault: undo b.md',
    'memvault: write b.md',
    'memvault: write a.md',
  ]);
  t.same(status(dir), []);
});

t.test('with HEAD detached the queued commits still land one by one', async (t) => {
  const dir = tempDir(t);
  write(dir, 'a.md', 'a0\n');
  const repo = await openRepo(t, dir);
  git(dir, 'checkout', '-q', '--detach');
  for (const p of ['p1.md', 'p2.md', 'p3.md', 'p4.md']) write(dir, p, `${p}\n`);
  const rs = await Promise.all(['p1.md', 'p2.md', 'p3.md', 'p4.md'].map((p) => repo.commit([p], { op: 'write', paths: [p], agent: 'x' })));
  t.ok(rs.every((r) => r.ok));
  t.equal(commitCount(dir), 5);
  t.same(status(dir), []);
});
