// A `.git/index.lock` left in the vault (a git killed mid-command) makes every commit fail, and the refused write's
// message named it, but `memvault doctor` and `memvault status` said nothing. Now doctor fails a `git lock` check
// with the lock's age and the advice, and `git.problem` is in /v1/status, in `memvault status` (through a daemon or
// without one) and on the status page, until the lock is gone. A lock younger than 2 s (git at work) is not reported.
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loginLink } from '../../actors/gateway/page/session.js';
import { gitIndexLock, LOCK_QUIET_MS } from '../../actors/git-writer/index-lock.js';
import { writeDaemonInfo } from '../../bin/client.js';
import { git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';

const TEN_MIN = 10 * 60_000;

t.test('a stale .git/index.lock is reported by doctor, status, /v1/status and the page', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nA note.\n' });
  t.teardown(() => v.cleanup());
  git(v.dir, 'init', '-q', '-b', 'main');
  const cfg = testConfig(v.dir);
  const conf = ['--vault', v.dir, '--config', cfg.config_file!];
  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, '');
  const tenMinAgo = (Date.now() - TEN_MIN) / 1000;
  utimesSync(lock, tenMinAgo, tenMinAgo); // left by a git killed ten minutes ago
  const problem = {
    reason: 'git_index_locked',
    path: lock,
    message: new RegExp(
      `^${lock.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has been there 10 min: .*if no git process runs \\(\`pgrep -a git\`\\), remove it \\(\`rm `,
    ),
  };

  const doc = await cli(['doctor', ...conf]);
  t.equal(doc.code, 1, 'doctor exits 1');
  t.match(
    doc.stdout,
    new RegExp(`\\nFAIL\\s+git lock\\s+git_index_locked: ${lock.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has been there 10 min: `),
  );

  const direct = JSON.parse((await cli(['status', '--json', ...conf])).stdout);
  t.equal(direct.daemon, null);
  t.match(direct.git.problem, problem, 'status without a daemon says so');
  t.ok(direct.git.problem.age_ms >= TEN_MIN, 'with its age');
  t.match((await cli(['status', ...conf])).stdout, /\ngit:\s+git_index_locked — .*index\.lock has been there 10 min/);

  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  const st = await d.api('GET', '/v1/status');
  t.equal(st.status, 200);
  t.match(st.body.git.problem, problem, '/v1/status has git.problem');
  writeDaemonInfo(cfg, { pid: process.pid, url: d.url, started_at: new Date().toISOString() });
  const through = JSON.parse((await cli(['status', '--json', ...conf])).stdout);
  t.equal(through.daemon, d.url, 'status went through the daemon');
  t.match(through.git.problem, problem, 'and shows the daemon’s git.problem');

  const login = await fetch(loginLink(d.url, d.token), { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const page = await (await fetch(`${d.url}/`, { headers: { cookie } })).text();
  t.match(page, /<dt>Git<\/dt><dd id="idx-git" class="bad">git_index_locked — .*index\.lock has been there 10 min/, 'the page shows it');

  rmSync(lock);
  t.same((await d.api('GET', '/v1/status')).body.git, { problem: null }, 'gone once the lock is removed');
  t.notMatch(await (await fetch(`${d.url}/`, { headers: { cookie } })).text(), /idx-git/);
  t.match((await cli(['doctor', ...conf])).stdout, /\nok\s+git lock\s+no stale \.git\/index\.lock\n/);
});

t.test('a lock younger than two seconds is git at work, not reported', async (t) => {
  const v = makeVault({});
  t.teardown(() => v.cleanup());
  git(v.dir, 'init', '-q');
  const lock = path.join(v.dir, '.git', 'index.lock');
  writeFileSync(lock, '');
  const { mtimeMs } = statSync(lock);
  t.equal(gitIndexLock(v.dir, mtimeMs + LOCK_QUIET_MS - 1), null);
  t.match(gitIndexLock(v.dir, mtimeMs + LOCK_QUIET_MS), { reason: 'git_index_locked', age_ms: LOCK_QUIET_MS });
});
