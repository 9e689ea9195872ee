// After a hundred agent writes (and undos) through a real daemon process, nothing under it is left defunct: every git
// the spawner started, the long-lived ones included, and the editor shell an undo's `git revert` runs, are reaped.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { ProcessDaemon } from './lib/daemon-process.js';

/** Every process under `pid` (children, theirs, …) with its command name and state letter, from /proc. */
function descendants(pid: number): { pid: number; comm: string; state: string }[] {
  const out: { pid: number; comm: string; state: string }[] = [];
  const walk = (p: number): void => {
    let kids: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const text = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (text !== '') kids = kids.concat(text.split(/\s+/).map(Number));
      }
    } catch {
      return; // gone meanwhile
    }
    for (const k of kids) {
      try {
        // "pid (comm) S ...": comm may hold spaces and parentheses, so split at the last ')'
        const stat = readFileSync(`/proc/${k}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        out.push({ pid: k, comm: stat.slice(stat.indexOf('(') + 1, close), state: stat.slice(close + 2, close + 3) });
      } catch {
        continue;
      }
      walk(k);
    }
  };
  walk(pid);
  return out;
}

t.test('a hundred writes and undos through a real daemon leave no defunct child under it', { timeout: 300_000 }, async (t) => {
  const v = makeVault({ 'Notes/keep.md': '# Keep\n\nAn existing note.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  const logFile = path.join(path.dirname(v.dir), 'daemon.log');
  const d = new ProcessDaemon({ vault: v.dir, configFile: cfg.config_file!, dataDir: cfg.data_dir, logFile });
  await d.start(120_000);
  t.teardown(() => d.stop());
  await d.caughtUp();

  for (let i = 0; i < 100; i++) {
    const r = await d.tool(
      'vault_write',
      { path: `Inbox/note-${i % 10}.md`, content: `# Note ${i}\n\nwrite number ${i}\n`, reason: 'zombies' },
      `agent-${i % 4}`,
    );
    if (r.status !== 200) t.fail(`write ${i}: ${JSON.stringify(r.body)}`);
    if (i % 25 === 24) {
      const u = await d.tool('vault_undo_last', {}, `agent-${i % 4}`);
      if (u.status !== 200) t.fail(`undo after write ${i}: ${JSON.stringify(u.body)}`);
    }
  }
  const under = descendants(d.pid!);
  t.ok(
    under.some((p) => p.comm === 'git'),
    `the long-lived git processes run under the daemon (${under.map((p) => p.comm).join(' ')})`,
  );
  const defunct = under.filter((p) => p.state === 'Z');
  t.same(defunct, [], 'no defunct process under the daemon');
});
