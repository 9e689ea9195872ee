// Git failing for real (a stale .git/index.lock): a write answers a retryable `unavailable`, and once the lock is
// gone the next write commits and the earlier note is committed too — nothing stays uncommitted.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, makeVault, startDaemon, testConfig, type Running, daemonOn } from '../helpers/daemon.js';

const vaultWrite = (d: Running, args: Record<string, unknown>) => d.tool('vault_write', args, 'chaos-bot');

t.test('a write while git cannot commit is refused as retryable and committed after recovery', { timeout: 120_000 }, async (t) => {
  const { v, d } = await daemonOn(t, { 'Notes/keep.md': '# Keep\n\nAn existing note.\n' }, 'writes:\n  human_quiet_ms: 50\n');
  const head0 = git(v.dir, 'rev-parse', 'HEAD').trim();

  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, ''); // what a crashed git or a concurrent git process leaves behind
  const failed = await vaultWrite(d, {
    path: 'Inbox/during.md',
    content: '# During\n\nWritten while git was locked: marmalade.\n',
    reason: 'chaos',
  });
  t.equal(failed.status, 503, 'answered as temporarily unavailable');
  t.equal(failed.retryAfter, '5', 'with a retry-after');
  t.equal(failed.body.error?.reason, 'unavailable');
  t.match(failed.body.error?.message, /written but git could not commit it/, 'the reason says the note is on disk but not committed');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), head0, 'no commit while locked');

  rmSync(lock);
  const committed = new Promise<void>((resolve) => {
    const off = d.daemon.onRouted((m) => {
      if (m.type === 'main.committed' && m.paths.includes('Inbox/during.md')) {
        off();
        resolve();
      }
    });
  });
  const ok = await vaultWrite(d, { path: 'Inbox/after.md', content: '# After\n\nWritten once git recovered.\n', reason: 'chaos' });
  t.equal(ok.status, 200, JSON.stringify(ok.body));
  t.match(ok.body.commit, /^[0-9a-f]{40}$/, 'the next write commits');
  await committed;
  t.equal(
    git(v.dir, 'show', 'HEAD:Inbox/during.md'),
    '# During\n\nWritten while git was locked: marmalade.\n',
    'the earlier note is committed too',
  );
  t.equal(git(v.dir, 'status', '--porcelain', '--', 'Inbox').trim(), '', 'nothing left uncommitted');
  t.match(
    git(v.dir, 'log', '-1', '--format=%B', '--', 'Inbox/during.md'),
    /Memvault-Agent: chaos-bot/,
    "recorded as the agent's write, not a person's",
  );
});

t.test('a write git refused is still committed as its agent after a restart', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Notes/keep.md': '# Keep\n\nAn existing note.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  let d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();

  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, '');
  const failed = await vaultWrite(d, {
    path: 'Inbox/owed.md',
    content: '# Owed\n\nWritten while git was locked: quince.\n',
    reason: 'chaos',
  });
  t.equal(failed.body.error?.reason, 'unavailable', 'refused as retryable, the note on disk');
  await d.stop(); // the daemon stops still owing the commit (the lock outlived it)
  rmSync(lock);

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'nothing left uncommitted after the start');
  const msg = git(v.dir, 'log', '-1', '--format=%B', '--', 'Inbox/owed.md');
  t.match(msg, /Memvault-Agent: chaos-bot/, "recorded as the agent's write, not swept up as the person's");
  t.match(msg, /git refused this commit/, 'and says how it was recorded');
  const undo = await d.tool('vault_undo_last', { only_mine: true }, 'chaos-bot');
  t.same(undo.body.paths, ['Inbox/owed.md'], 'the agent can undo it');
});
