// The daemon leaves no zombie children: not the OS watcher's (left to pick its backend, @parcel/watcher asked
// `sh -c watchman …` and never reaped the shell), not the git spawner's after a hundred writes, each its own commit.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

/** Every process below `root` (children, grandchildren …) with its state letter and command. */
function descendants(root: number): Array<{ pid: number; stat: string; comm: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, stat, ...comm]) => ({ pid: Number(pid), ppid: Number(ppid), stat: stat ?? '', comm: comm.join(' ') }));
  const out: Array<{ pid: number; stat: string; comm: string }> = [];
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows)
      if (below.has(r.ppid) && !below.has(r.pid)) {
        below.add(r.pid);
        out.push({ pid: r.pid, stat: r.stat, comm: r.comm });
        grew = true;
      }
  }
  return out;
}

t.test('after start-up and 100 agent writes, no defunct process is left under the daemon', async (t) => {
  const { d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n\nfirst note\n' });
  for (let i = 0; i < 100; i++) {
    const r = await d.tool('vault_write', { path: `Inbox/z/n${i}.md`, content: `# Note ${i}\n\nwrite ${i}\n` }, `agent-${i % 4}`);
    if (r.status !== 200) t.fail(`write ${i}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  await d.daemon.whenCaughtUp();
  const all = descendants(process.pid); // the daemon runs in this process: its threads are not processes
  t.ok(all.length > 0, `the git spawner runs under the daemon (${all.map((p) => p.comm).join(', ')})`);
  t.same(
    all.filter((p) => p.stat.startsWith('Z')),
    [],
    'no zombie children',
  );
});
