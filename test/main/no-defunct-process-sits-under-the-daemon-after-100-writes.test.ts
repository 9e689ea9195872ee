// The daemon leaves no zombie children: not the OS watcher's (left to pick its backend, @parcel/watcher asked
// `sh -c watchman …` and never reaped the shell), not the git spawner's after a hundred writes, each its own commit.
import t from 'tap';
import { daemonOn, nextRestart } from '../helpers/daemon.js';
import { descendants } from '../helpers/processes.js';

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
    all.filter((p) => p.state === 'Z'),
    [],
    'no zombie children',
  );
});

t.test('the git writer and the store writer crash and restart: no defunct process is left behind them', async (t) => {
  // A process forked from a worker thread was never reaped once that thread ended: each crash of an actor that had
  // run git left a `[node] <defunct>` spawner under the daemon. Git runs in the daemon's one spawner, forked by main.
  const { d } = await daemonOn(t, { 'People/Ada.md': '# Ada\n\n- works_at:: [[Acme]]\n' });
  let n = 0;
  const write = async (what: string): Promise<void> => {
    // a note with a fact: the store writer dates it from git's history (recorded-at.ts), so it runs git too
    const r = await d.tool('vault_write', { path: `People/p${n}.md`, content: `# P${n}\n\n- lives_in:: City ${n++}\n` }, 'agent-a');
    t.equal(r.status, 200, `a write ${what}`);
    await d.daemon.whenCaughtUp();
  };
  await write('before any crash');
  for (const actor of ['git', 'store', 'git'] as const) {
    const restarted = nextRestart(d.daemon, actor);
    await d.daemon.handles[actor]!.crash(`test: crash ${actor}`);
    await restarted;
    await write(`after the ${actor} writer restarted`);
  }
  const all = descendants(process.pid);
  t.same(
    all.filter((p) => p.state === 'Z'),
    [],
    'no zombie children',
  );
  t.same(
    all.filter((p) => p.comm === 'node').map((p) => p.pid),
    [d.daemon.spawner.pid],
    `one node process under the daemon, the spawner main forked (${all.map((p) => p.comm).join(', ')})`,
  );
});
