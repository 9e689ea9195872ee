// Two `memvault start` on one vault at the same moment both found no daemon.json (written once a daemon is up, ~2 s
// later) and both served the one index. A start now claims the data dir (daemon.starting, made exclusively) from its
// check until daemon.json names it: the other start says a daemon is starting or serves, and exits 1. A claim left by
// a start that was killed is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { BIN } from '../helpers/run-cli.js';

function start(vault: string, env: NodeJS.ProcessEnv) {
  const child = spawn(BIN, ['start', '--vault', vault, '--listen', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  // serving (its banner) or refused (its exit), whichever comes first
  const settled = new Promise<'serving' | 'exited'>((resolve) => {
    child.stderr!.on('data', () => /metrics:/.test(err) && resolve('serving'));
    void exited.then(() => resolve('exited'));
  });
  return { child, exited, settled, err: () => err };
}

t.test('two starts at once: one serves, the other refuses in one line', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nOtters.\n' });
  t.teardown(() => v.cleanup());
  const env = { MEMVAULT_DATA_DIR: path.join(path.dirname(v.dir), 'data') };
  const a = start(v.dir, env);
  const b = start(v.dir, env);
  t.teardown(() => {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  });
  const states = await Promise.all([a.settled, b.settled]);
  t.same([...states].sort(), ['exited', 'serving'], 'exactly one serves');
  if (!states.includes('exited')) return; // both serve: the teardown ends them
  const [serving, refused] = states[0] === 'serving' ? [a, b] : [b, a];
  t.same((await refused.exited)[0], 1, 'the other exits 1');
  t.match(refused.err(), /^memvault: a daemon (is starting on .* \(pid \d+\)|already serves .* at http:\/\/127\.0\.0\.1:\d+)\n$/);
  t.notOk(existsSync(path.join(env.MEMVAULT_DATA_DIR, 'daemon.starting')), 'the claim is released once the daemon is up');
  serving.child.kill('SIGTERM');
  t.same(await serving.exited, [0, null], 'it stops cleanly');
});

t.test('a claim left by a start that was killed is taken over', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const env = { MEMVAULT_DATA_DIR: path.join(path.dirname(v.dir), 'data') };
  mkdirSync(env.MEMVAULT_DATA_DIR, { recursive: true });
  const gone = spawnSync(process.execPath, ['-e', '']).pid!; // a pid whose process has ended
  writeFileSync(path.join(env.MEMVAULT_DATA_DIR, 'daemon.starting'), `${gone}\n`);
  const s = start(v.dir, env);
  t.teardown(() => s.child.kill('SIGKILL'));
  t.equal(await s.settled, 'serving', s.err());
  s.child.kill('SIGTERM');
  t.same(await s.exited, [0, null]);
});
