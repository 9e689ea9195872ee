// An agent write git refused (a stale .git/index.lock) is owed in the intent journal; a restart while git still
// refuses used to drop it from the journal after one failed try at start, so once the lock was gone the note was
// committed as the PERSON's edit, which the agent cannot undo. It stays owed until git works, and is the agent's.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { IntentJournal, intentFor } from '../../actors/git-writer/intent-journal.js';
import { git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const lastCommitOf = (dir: string, rel: string) =>
  git(dir, 'log', '-1', '--format=%an|%(trailers:key=Memvault-Agent,valueonly,separator=%x2C)', 'HEAD', '--', rel).trim();

t.test('an owed agent write survives a restart while git is locked and is committed as the agent', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Inbox/old.md': '# Old\n\nbefore the lock\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  let d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  await d.stop();

  // what a run leaves when git refused an agent's commit and it then stopped: the note on disk, the write owed
  const content = '# Owed\n\nwritten by agent-7 while git was locked\n';
  const journal = new IntentJournal(path.join(cfg.data_dir, 'git-intent.json'));
  await journal.owe(await intentFor(v.dir, { op: 'write', path: 'Inbox/owed.md', content }, { agent: 'agent-7' }));
  v.write('Inbox/owed.md', content);
  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, ''); // as a killed git leaves it: every commit at start fails

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  t.equal(lastCommitOf(v.dir, 'Inbox/owed.md'), '', 'not committed while git is locked');
  t.ok(
    (await journal.read())?.owed.some((o) => o.paths.includes('Inbox/owed.md')),
    'still owed in the journal',
  );

  rmSync(lock);
  const w = await d.tool('vault_write', { path: 'Inbox/next.md', content: '# Next\n\nthe next agent write\n' }, 'agent-8');
  t.equal(w.status, 200, JSON.stringify(w.body));
  for (let i = 0; i < 200 && git(v.dir, 'status', '--porcelain', '--', 'Inbox/owed.md').trim() !== ''; i++)
    await new Promise((r) => setTimeout(r, 100));
  t.equal(lastCommitOf(v.dir, 'Inbox/owed.md'), 'memvault|agent-7', 'committed as agent-7, not as the person');
  const u = await d.tool('vault_undo_last', { only_mine: true }, 'agent-7');
  t.equal(u.status, 200, JSON.stringify(u.body));
  t.same(u.body.paths, ['Inbox/owed.md'], 'agent-7 can undo it');
});
