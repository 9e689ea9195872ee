// Two vaults given one data dir (MEMVAULT_DATA_DIR): while the first one's daemon runs, the second one's commands
// refuse in one line naming that daemon, rather than answer from the first vault or start a second daemon on its index.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli, startCli } from '../helpers/run-cli.js';

t.test('a vault sharing another vaults data dir refuses to run beside its daemon', async (t) => {
  const v = makeVault({ 'Inbox/otters.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  const other = path.join(path.dirname(v.dir), 'other-vault');
  mkdirSync(other);
  const env = { MEMVAULT_DATA_DIR: path.join(path.dirname(v.dir), 'shared-data') };
  const { child, url, exited } = await startCli(t, v.dir, env);

  for (const args of [
    ['search', 'otters'],
    ['start', '--listen', '127.0.0.1:0'],
  ]) {
    const r = await cli([...args, '--vault', other], env);
    t.equal(r.code, 1, `${args[0]} exits 1`);
    t.equal(
      r.stderr,
      `memvault: the daemon at ${url} serves ${v.dir} with the data dir ${env.MEMVAULT_DATA_DIR}: give ${other} a data dir of its own (data_dir, MEMVAULT_DATA_DIR)\n`,
      `${args[0]} says which daemon holds the data dir`,
    );
  }
  t.equal(JSON.parse((await cli(['status', '--vault', v.dir, '--json'], env)).stdout).daemon, url, 'the first vault keeps its daemon');
  child.kill('SIGTERM');
  t.same(await exited, [0, null], 'its daemon stops cleanly');
});
