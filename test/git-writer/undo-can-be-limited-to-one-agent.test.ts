// undo_last with an agent filter skips other agents' commits, people's commits and undos; with nothing left it says so.
import t from 'tap';
import { git, read, vaultWith, write } from './helpers/vault-repo.js';

t.test('only the named agent’s latest change is undone', async (t) => {
  const { dir, repo } = await vaultWith(t, {});
  write(dir, 'mine.md', 'by claude\n');
  const c = await repo.commit(['mine.md'], { op: 'write', paths: ['mine.md'], agent: 'claude' });
  write(dir, 'theirs.md', 'by codex\n');
  const x = await repo.commit(['theirs.md'], { op: 'write', paths: ['theirs.md'], agent: 'codex' });
  write(dir, 'person.md', 'by hand\n');
  await repo.commitHumanChanges();
  if (!c.ok || !x.ok) return t.fail('setup');

  const u = await repo.undoLast({ agent: 'claude', byAgent: 'claude' });
  t.match(u, { ok: true, reverted: c.sha, paths: ['mine.md'] });
  t.equal(read(dir, 'mine.md'), null);
  t.equal(read(dir, 'theirs.md'), 'by codex\n', 'the other agent’s note is untouched');
  t.equal(read(dir, 'person.md'), 'by hand\n', 'the person’s note is untouched');
  t.equal(git(dir, 'log', '-1', '--format=%(trailers:key=Memvault-Agent,valueonly)').trim(), 'claude');

  t.match(await repo.undoLast({ agent: 'claude', byAgent: 'claude' }), { ok: false, reason: 'nothing_to_undo', message: /agent claude/ });
  t.match(await repo.undoLast({ agent: 'gemini', byAgent: 'gemini' }), { ok: false, reason: 'nothing_to_undo' });
  // Without the filter the latest remaining agent change is codex's; the person's commit is never a target.
  t.match(await repo.undoLast({ byAgent: 'admin' }), { ok: true, reverted: x.sha });
  t.match(await repo.undoLast({ byAgent: 'admin' }), { ok: false, reason: 'nothing_to_undo' });
  t.equal(read(dir, 'person.md'), 'by hand\n');
});

t.test('a fresh vault has nothing to undo: the import is a person’s commit', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'a.md': 'a\n' });
  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: false, reason: 'nothing_to_undo' });
  t.equal(git(dir, 'rev-list', '--count', 'HEAD').trim(), '1');
});
