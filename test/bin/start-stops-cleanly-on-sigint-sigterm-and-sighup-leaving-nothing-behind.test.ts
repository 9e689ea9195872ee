// `memvault start` runs in the foreground: Ctrl-C (SIGINT), systemd's stop (SIGTERM) and a closed terminal or a stray
// `kill -HUP` (SIGHUP) each stop it cleanly: exit 0, daemon_stopped logged, daemon.json removed, no process left.
// SIGHUP used to kill it on the spot (Node's default): exit by signal, no shutdown, a stale daemon.json.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, within } from '../helpers/daemon.js';
import { processesWithEnv } from '../helpers/processes.js';
import { startCli } from '../helpers/run-cli.js';

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  t.test(`${signal} stops memvault start cleanly`, async (t) => {
    const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
    t.teardown(() => v.cleanup());
    const mark = randomBytes(8).toString('hex');
    const { child, exited } = await startCli(t, v.dir, { MEMVAULT_TEST_MARK: mark });
    const info = path.join(v.dir, '.memvault', 'daemon.json');
    t.ok(existsSync(info), 'daemon.json names the running daemon');
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.kill(signal);
    const [code, killedBy] = (await within(exited, 60_000, `memvault start to stop on ${signal}`)) as [number | null, string | null];
    t.equal(killedBy, null, 'not killed by the signal');
    t.equal(code, 0, 'exit 0');
    const stopped = err
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; reason?: string })
      .find((l) => l.event === 'daemon_stopped');
    t.equal(stopped?.reason, signal, 'daemon_stopped names the signal');
    t.notOk(existsSync(info), 'daemon.json removed');
    t.same(processesWithEnv('MEMVAULT_TEST_MARK', mark), [], 'no process it started is still running');
  });
}
