// `memvault start` wrote its JSON log lines (main's and every actor thread's) on stdout, so a start that then failed
// left a `config_loaded` line there, and the notice that the log file cannot be written went to stdout in every
// command, `memvault mcp` included, whose stdout is the MCP channel. Logs now go to stderr and the log file only.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, within } from '../helpers/daemon.js';
import { BIN } from '../helpers/run-cli.js';

/** `memvault start` until its banner, then SIGTERM: both outputs once it has exited. */
async function startAndStop(
  t: { teardown(fn: () => void): void },
  vault: string,
): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(BIN, ['start', '--vault', vault, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  while (!/metrics:/.test(err)) await within(once(child.stderr, 'data'), 60_000, 'the banner');
  child.kill('SIGTERM');
  const [code] = await within(exited, 60_000, 'the daemon to stop');
  return { out, err, code };
}

const events = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { actor: string; event?: string });

t.test('a serving daemon logs on stderr and in its log file, nothing on stdout', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  const r = await startAndStop(t, v.dir);
  t.equal(r.code, 0);
  t.equal(r.out, '', 'nothing on stdout');
  const logged = events(r.err);
  t.ok(
    logged.some((e) => e.actor === 'main' && e.event === 'daemon_started'),
    'main’s lines are on stderr',
  );
  t.ok(
    logged.some((e) => e.actor === 'gateway' && e.event === 'gateway_listening'),
    'and the actor threads’',
  );
  const file = events(readFileSync(path.join(v.dir, '.memvault', 'logs', 'memvault.log'), 'utf8'));
  t.ok(
    file.some((e) => e.event === 'daemon_started'),
    'and in the log file',
  );
});

t.test('a log file that cannot be made is said on stderr, not stdout', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  mkdirSync(path.join(v.dir, '.memvault'));
  writeFileSync(path.join(v.dir, '.memvault', 'logs'), 'a file where the logs folder would be');
  const r = await startAndStop(t, v.dir);
  t.equal(r.code, 0);
  t.equal(r.out, '', 'nothing on stdout');
  t.ok(
    events(r.err).some((e) => e.event === 'log_file_write_failed'),
    'the notice is on stderr',
  );
});
