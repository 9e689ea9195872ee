// A vault whose repository uses SHA-256 object names gets the same commits, group commits and undo, with 64-hex ids.
import t from 'tap';
import { git, openRepo, read, status, tempDir, write } from './helpers/vault-repo.js';

t.test('writes (one and grouped) and undo return full 64-hex ids that git resolves', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q', '-b', 'main', '--object-format=sha256');
  write(dir, 'a.md', 'a0\n');
  const repo = await openRepo(t, dir);
  write(dir, 'a.md', 'a1\n');
  const one = await repo.commit(['a.md'], { op: 'write', paths: ['a.md'], agent: 'x' });
  for (const p of ['b.md', 'c.md', 'd.md']) write(dir, p, `${p}\n`);
  const grouped = await Promise.all(['b.md', 'c.md', 'd.md'].map((p) => repo.commit([p], { op: 'write', paths: [p], agent: 'x' })));
  for (const r of [one, ...grouped]) {
    t.match(r, { ok: true, sha: /^[0-9a-f]{64}$/ });
    if (r.ok) t.equal(git(dir, 'rev-parse', '--verify', `${r.sha}^{commit}`).trim(), r.sha);
  }
  const u = await repo.undoLast({ byAgent: 'x' });
  t.match(u, { ok: true, sha: /^[0-9a-f]{64}$/, reverted: grouped[2]!.ok ? grouped[2]!.sha : 'x' });
  t.equal(read(dir, 'd.md'), null);
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Reverts,valueonly)').trim(), grouped[2]!.ok ? grouped[2]!.sha : 'x');
  t.same(status(dir), []);
  git(dir, 'fsck', '--strict');
});
