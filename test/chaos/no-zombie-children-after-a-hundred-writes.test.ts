// After a hundred agent writes (and undos) through a real daemon process, nothing under it is left defunct: every git
// the spawner started, the long-lived ones included, and the editor shell an undo's `git revert` runs, are reaped.
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { descendants } from '../helpers/processes.js';
import { ProcessDaemon } from './lib/daemon-process.js';

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
