// The daemon's spawner (main/spawner-host.ts) runs every git command of its actors. Killed, it is reaped by main and
// forked again at the same address (a second later when it lived less than one); the git writer's next command
// connects to the new one (a refused connection is tried again), and the writes go on being committed.
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';
import { descendants } from '../helpers/processes.js';

t.test('the spawner killed just before each of three writes: every write is committed', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n\nfirst note\n' });
  const write = async (name: string): Promise<void> => {
    const r = await d.tool('vault_write', { path: `Inbox/${name}.md`, content: `# ${name}\n\nbody\n` }, 'agent-a');
    t.equal(r.status, 200, `write ${name}: ${JSON.stringify(r.body).slice(0, 200)}`);
  };
  await write('before');
  const pids = new Set<number | undefined>();
  d.daemon.spawner.onFork((pid) => pids.add(pid));
  for (let i = 0; i < 3; i++) {
    const pid = d.daemon.spawner.pid;
    t.ok(pid, `a spawner runs before kill ${i}`);
    process.kill(pid!, 'SIGKILL'); // the second and third die young: their successors are forked a second later
    await write(`after-${i}`);
  }
  t.equal(pids.size, 3, 'a new spawner after each kill');
  await d.daemon.whenCaughtUp();
  const log = git(v.dir, 'log', '--format=', '--name-only');
  for (let i = 0; i < 3; i++) t.match(log, `Inbox/after-${i}.md`, `after-${i} is committed`);
  t.equal(git(v.dir, 'status', '--porcelain'), '', 'nothing left uncommitted');
  t.same(
    descendants(process.pid).filter((p) => p.state === 'Z'),
    [],
    'every killed spawner was reaped',
  );
});
