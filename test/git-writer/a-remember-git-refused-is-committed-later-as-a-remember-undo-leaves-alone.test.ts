// A memory_remember whose commit git refused (a stale .git/index.lock) is owed and committed once git works; it used
// to be committed as `Memvault-Op: write`, so the next vault_undo_last reverted it and took the fact out of the
// append-only log. It is committed as a remember, which undo never reverts.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('an owed remember is committed as a remember and vault_undo_last passes over it', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Inbox/old.md': '# Old\n\nbefore the lock\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const w = await d.tool('vault_write', { path: 'Inbox/mine.md', content: '# Mine\n\nagent-7 wrote this first\n' }, 'agent-7');
  t.equal(w.status, 200, JSON.stringify(w.body));

  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, '');
  const r = await d.tool('memory_remember', { content: 'The kiln key hangs by the back door' }, 'agent-7');
  t.equal(r.body.error?.reason, 'unavailable', JSON.stringify(r.body));
  t.match(
    r.body.error?.message,
    /^the fact was written to the log but git could not commit it .*it is on disk, and memvault commits it as this agent's once git works again .* do not send it again/,
    'no retry asked: a remember sent again would append twice; and it is a fact, not a note',
  );
  rmSync(lock);
  const log = (): string => git(v.dir, 'log', '-1', '--format=%(trailers:key=Memvault-Op,valueonly)', 'HEAD', '--', 'Memory/Log');
  for (let i = 0; i < 200 && log().trim() === ''; i++) await new Promise((res) => setTimeout(res, 100));
  t.equal(log().trim(), 'remember', 'the owed commit records a remember');

  const u = await d.tool('vault_undo_last', { only_mine: true }, 'agent-7');
  t.equal(u.status, 200, JSON.stringify(u.body));
  t.same(u.body.paths, ['Inbox/mine.md'], 'the undo reverts the agent’s write, not the remember');
  const logDir = path.join(v.dir, 'Memory', 'Log');
  const days = existsSync(logDir) ? readdirSync(logDir) : [];
  const text = days.map((f) => readFileSync(path.join(logDir, f), 'utf8')).join('\n');
  t.match(text, /kiln key hangs by the back door/, 'the fact is still in the log');
});
