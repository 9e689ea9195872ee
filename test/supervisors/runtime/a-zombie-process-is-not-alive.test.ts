// pidAlive says whether a claim's process still works (daemon.json, the start's and a reindex's claims). A process
// killed but not yet reaped by its parent answers signal 0 and was taken for alive, so a start right after a kill -9
// kept a killed reindex's half-built file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { pidAlive } from '../../../supervisors/runtime/pid-alive.js';

t.test('a zombie is not alive; its parent, which runs, is', async (t) => {
  // the parent forks a child that exits at once and is never waited for; it prints the child's pid once /proc shows Z
  const parent = spawn(
    'python3',
    [
      '-c',
      `import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
while open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
    time.sleep(0.001)
print(pid, flush=True)
sys.stdin.read()`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  t.teardown(() => parent.kill('SIGKILL'));
  const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
  const child = Number(line.toString().trim());
  t.ok(child > 0);
  t.equal(pidAlive(child), false, 'the zombie child');
  t.equal(pidAlive(parent.pid!), true, 'the parent');
  parent.stdin!.end();
  await once(parent, 'exit');
  t.equal(pidAlive(child), false, 'reaped and gone');
});
