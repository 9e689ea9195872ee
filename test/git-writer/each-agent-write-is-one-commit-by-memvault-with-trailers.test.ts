// Every agent write is exactly one commit, authored and committed by memvault, with the agent and reason in trailers.
import t from 'tap';
import { commitCount, git, MEMVAULT, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('three writes make three commits with memvault as author and committer', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'one\n' });
  write(dir, 'a.md', 'two\n');
  const r1 = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude', reason: 'fix the typo' });
  write(dir, 'notes/new.md', 'fresh\n');
  const r2 = await repo.commit(['notes/new.md'], { op: 'write', paths: ['notes/new.md'], agent: 'codex' });
  write(dir, 'notes/new.md', 'fresher\n');
  const r3 = await repo.commit(['notes/new.md'], {
    op: 'write',
    paths: ['notes/new.md'],
    agent: 'codex',
    reason: 'line one\nline two\ttabbed',
  });
  if (!r1.ok || !r2.ok || !r3.ok) return t.fail(`commit failed: ${JSON.stringify([r1, r2, r3])}`);

  t.equal(commitCount(dir), 4, 'import + one commit per write');
  t.equal(git(dir, 'rev-parse', 'HEAD').trim(), r3.sha, 'the sha returned is the new HEAD');
  t.match(r1.sha, /^[0-9a-f]{40}$/);
  t.same(status(dir), [], 'nothing left uncommitted');

  const who = git(dir, 'log', '-3', '--format=%an <%ae>|%cn <%ce>').trim().split('\n');
  t.same(who, Array(3).fill(`${MEMVAULT.name} <${MEMVAULT.email}>|${MEMVAULT.name} <${MEMVAULT.email}>`));

  t.equal(git(dir, 'log', '-1', '--format=%s', r1.sha).trim(), 'memvault: write a.md');
  t.equal(
    git(dir, 'log', '-1', '--format=%(trailers:only,unfold)', r1.sha).trim(),
    'Memvault-Op: write\nMemvault-Path: a.md\nMemvault-Agent: claude\nMemvault-Reason: fix the typo',
  );
  t.equal(
    git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Reason,valueonly)', r3.sha).trim(),
    'line one line two tabbed',
    'a reason is one line',
  );
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Reason)', r2.sha).trim(), '', 'no reason, no trailer');

  const stat = git(dir, 'show', '--stat', '--format=', r2.sha);
  t.match(stat, /notes\/new\.md \| 1 \+/);
  t.match(stat, /1 file changed, 1 insertion/);
  t.equal(git(dir, 'show', `${r3.sha}:notes/new.md`), 'fresher\n');

  const log = await repo.log(3);
  t.match(log, [
    { sha: r3.sha, op: 'write', paths: ['notes/new.md'], agent: 'codex', reason: 'line one line two tabbed', author: MEMVAULT },
    { sha: r2.sha, op: 'write', paths: ['notes/new.md'], agent: 'codex', reason: undefined },
    { sha: r1.sha, op: 'write', paths: ['a.md'], agent: 'claude', reason: 'fix the typo', subject: 'memvault: write a.md' },
  ]);
  t.same(log[0]!.parents, [r2.sha]);
  git(dir, 'fsck', '--strict');
});

t.test('committing a note that did not change is nothing_to_commit and adds no commit', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'same\n' });
  const r = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  t.match(r, { ok: false, reason: 'nothing_to_commit' });
  t.equal(commitCount(dir), 1);
});

t.test('concurrent commits are serialised: each gets its own commit, none fails on index.lock', async (t) => {
  const { dir, repo } = await vaultWith(t, {});
  const writes = Array.from({ length: 8 }, (_, i) => `agent${i}/note.md`);
  for (const p of writes) write(dir, p, `${p}\n`);
  const results = await Promise.all(writes.map((p, i) => repo.commit([p], { op: 'write', paths: [p], agent: `agent${i}` })));
  t.ok(
    results.every((r) => r.ok),
    JSON.stringify(results.filter((r) => !r.ok)),
  );
  t.equal(commitCount(dir), 9);
  t.same(git(dir, 'log', '--format=%(trailers:key=Memvault-Path,valueonly)', '-8').split('\n').filter(Boolean).sort(), [...writes].sort());
});

t.test('a note ignored by the vault .gitignore is reported as ignored', async (t) => {
  const { dir, repo } = await vaultWith(t, { '.gitignore': 'private/\n' });
  write(dir, 'private/secret.md', 'x\n');
  const r = await repo.commit(['private/secret.md'], { op: 'write', paths: ['private/secret.md'], agent: 'claude' });
  t.match(r, { ok: false, reason: 'ignored', message: /private\/secret\.md.*\.gitignore/ });
  t.equal(commitCount(dir), 1);
});

t.test('a commit blocked by a held index.lock fails as data naming the lock', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n' });
  write(dir, 'a.md', 'b\n');
  write(dir, '.git/index.lock', '');
  const r = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'claude' });
  t.match(r, { ok: false, reason: 'git_failed', message: /index\.lock/ });
  t.equal(commitCount(dir), 1);
});
