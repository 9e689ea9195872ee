// `memvault start` on a port another program holds: one line naming the address, exit 1, and no thread or process left.
// Nothing on stdout: the `config_loaded` log line went there before the error (logs are on stderr now, as JSON lines).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import { makeVault, within } from '../helpers/daemon.js';
import { processesWithEnv } from '../helpers/processes.js';
import { BIN, memvault } from '../helpers/run-cli.js';

t.test('start on an address in use says so in one line and exits 1 leaving nothing running', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const listen = `127.0.0.1:${(taken.address() as AddressInfo).port}`;
  // every process the command forks inherits this: one still alive after it exits was left behind
  const mark = randomBytes(8).toString('hex');
  const child = spawn(BIN, ['start', '--vault', v.dir, '--listen', listen], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MEMVAULT_TEST_MARK: mark },
  });
  let err = '';
  let out = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  t.teardown(() => child.kill('SIGKILL'));
  const [code, signal] = await within(exited, 60_000, 'memvault start to exit by itself');
  t.equal(signal, null, 'not killed');
  t.equal(code, 1, 'exit status 1');
  t.equal(out, '', 'nothing on stdout');
  const lines = err.split('\n').filter((l) => l !== '');
  t.ok(
    lines.some((l) => l.startsWith('{') && JSON.parse(l).event === 'config_loaded'),
    'the log line is on stderr',
  );
  t.same(
    lines.filter((l) => !l.startsWith('{')),
    [`memvault: ${listen} is in use (EADDRINUSE): stop what listens there or choose another address with --listen (or MEMVAULT_LISTEN)`],
    'besides the JSON log lines, one line',
  );
  t.same(processesWithEnv('MEMVAULT_TEST_MARK', mark), [], 'no process it started is still running');
});

t.test('start on a host name that does not resolve says so in one line and exits 1 leaving nothing running', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  const mark = randomBytes(8).toString('hex');
  // .invalid never resolves (RFC 2606): NXDOMAIN, or EAI_AGAIN where no resolver answers
  const listen = 'no-such-host.invalid:0';
  const r = await memvault(['start', '--vault', v.dir, '--listen', listen], { MEMVAULT_TEST_MARK: mark }, { timeoutMs: 60_000 });
  t.equal(r.code, 1, 'exit status 1');
  t.equal(r.stdout, '', 'nothing on stdout');
  const lines = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'));
  t.equal(lines.length, 1, `besides the JSON log lines, one line: ${r.stderr}`);
  t.match(
    lines[0],
    /^memvault: no-such-host\.invalid:0: the host no-such-host\.invalid cannot be resolved \((ENOTFOUND|EAI_AGAIN)\): choose another address with --listen \(or MEMVAULT_LISTEN\)$/,
  );
  t.same(processesWithEnv('MEMVAULT_TEST_MARK', mark), [], 'no process it started is still running');
});
