// Git is started by the spawner process, never forked from the daemon: a fork write-protects all of the daemon's
// memory and stalls its embedding threads (bench/spawn-cost.ts). A spawner that dies is replaced, and a command it
// was running answers git_failed rather than hanging.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../actors/git-writer/git-cli.js';
import { spawnerPid } from '../../actors/git-writer/spawner.js';
import { tempDir } from './helpers/vault-repo.js';

/** A `git` that tells who started it ($PPID), then runs `rest` (shell). */
function fakeGit(t: Parameters<typeof tempDir>[0], rest = ''): { path: string; dir: string } {
  const bin = tempDir(t, 'memvault-fake-git-');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$PPID"\n${rest}\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { path: `${bin}:/usr/bin:/bin`, dir: bin };
}

t.test('git runs as a child of the spawner, not of this process', async (t) => {
  const fake = fakeGit(t);
  const r = await git(tempDir(t), ['status'], { env: { PATH: fake.path } });
  t.match(r, { ok: true });
  const parent = Number(r.ok ? r.stdout.trim() : NaN);
  t.not(parent, process.pid, 'not forked from the process that asked');
  t.equal(parent, spawnerPid(), 'forked by the spawner');
});

t.test('a killed spawner is replaced, and the command it ran answers git_failed', async (t) => {
  // the fake git writes its pid into a FIFO and then blocks: reading the FIFO awaits the moment it runs
  const fake = fakeGit(t, 'echo $$ > "$(dirname "$0")/started"\nexec sleep 60');
  const started = join(fake.dir, 'started');
  execFileSync('mkfifo', [started]);
  const dir = tempDir(t);
  const before = spawnerPid();
  t.ok(before, 'a spawner runs');
  const running = git(dir, ['log'], { env: { PATH: fake.path } });
  const sleeper = Number((await readFile(started, 'utf8')).trim());
  t.teardown(() => {
    try {
      process.kill(sleeper, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  process.kill(before!, 'SIGKILL');
  const r = await running;
  t.match(r, { ok: false, reason: 'git_failed', message: /spawner process exited/ });
  const again = await git(dir, ['--version']);
  t.match(again, { ok: true, stdout: /git version/ }, 'the next command starts a new spawner');
  t.not(spawnerPid(), before, 'a new spawner process');
});
