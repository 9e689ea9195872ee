// A reader that stops early (`memvault doctor | head -1`) closes the pipe: the command ends with its own exit status
// and nothing on stderr, not an unhandled EPIPE and its stack trace.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { BIN, memvault as cli } from '../helpers/run-cli.js';

t.test('output cut short by its reader ends the command quietly', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  for (const args of [
    ['doctor', '--vault', v.dir],
    ['status', '--vault', v.dir, '--json'],
  ]) {
    const whole = await cli(args);
    const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the command writes its first line
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    t.equal(err, '', `${args[0]}: nothing on stderr`);
    t.equal(code, whole.code, `${args[0]}: the exit status of a run read to the end (${whole.code})`);
  }
});
