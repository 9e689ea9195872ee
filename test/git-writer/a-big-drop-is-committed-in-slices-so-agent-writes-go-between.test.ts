// A person dropping thousands of notes is committed a slice at a time: one commit of a 10,000-note drop held every
// agent write for ~17 s (issue 4, overload). An agent write made meanwhile lands between slices, not after them all.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, daemonOn } from '../helpers/daemon.js';

t.test('a 1,200-note drop becomes slices of at most 500, and an agent write goes in between', async (t) => {
  const { v, d } = await daemonOn(t, { 'Projects/Atlas.md': '# Atlas\n\nthe first note\n' }, 'writes:\n  human_quiet_ms: 200\n');

  const n = 1_200;
  const human: string[][] = [];
  let agentWrite: Promise<string | null> | null = null;
  const allCommitted = new Promise<void>((resolve) => {
    let committed = 0;
    const off = d.daemon.onRouted((m) => {
      if (m.type !== 'main.committed' || m.kind !== 'human') return;
      human.push(m.paths);
      committed += m.paths.length;
      // the first slice is in: write as an agent now, while the rest of the drop still waits for its turn
      if (human.length === 1)
        agentWrite = d
          .api('POST', '/v1/tools/vault_write', { path: 'Inbox/meanwhile.md', content: '# Meanwhile\n\nwritten during the drop\n' })
          .then((r) => (r.status === 200 ? (r.body.commit as string) : null));
      if (committed >= n) {
        off();
        resolve();
      }
    });
  });
  mkdirSync(path.join(v.dir, 'Drop'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(path.join(v.dir, 'Drop', `note-${i}.md`), `# Dropped ${i}\n\na note a person copied in\n`);
  await allCommitted;

  t.ok(human.length >= 3, `the drop became ${human.length} commits`);
  t.ok(
    human.every((p) => p.length <= 500),
    `each at most 500 notes (${human.map((p) => p.length).join(', ')})`,
  );
  t.equal(new Set(human.flat()).size, n, 'every dropped note was committed once');
  const agentSha = await agentWrite;
  t.ok(agentSha, 'the agent write was acknowledged');
  const order = git(v.dir, 'log', '--format=%H %an', '--reverse').trim().split('\n');
  const at = order.findIndex((l) => l.startsWith(agentSha ?? '-'));
  const humanAfter = order.slice(at + 1).filter((l) => l.endsWith('vault owner')).length;
  t.ok(at >= 0 && humanAfter > 0, `the agent's commit came before the last slice (${humanAfter} human commits after it)`);
  git(v.dir, 'fsck', '--strict');
});
