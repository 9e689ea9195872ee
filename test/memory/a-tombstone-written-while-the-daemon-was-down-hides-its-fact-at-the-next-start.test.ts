// A start brings the index in step with the fact log, but skipped every day log unchanged since it was indexed — even
// when the tombstones had changed meanwhile: a forget a crash cut off after its tombstone reached the disk and before
// the memory actor heard of it (its commit recovered at the next start as the agent's), or a tombstone a person or a
// `git pull` brought while the daemon was down. The forgotten fact then stayed searchable for good (seen as a flaky
// kill -9 test). The index now records which tombstones it applied, and a start reads every log again when they differ.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('a tombstone written while the daemon was down hides its fact at the next start', async (t) => {
  const v = makeVault({ 'Inbox/seed.md': '# Seed\n\nA note.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const first = await startDaemon(cfg);
  await first.daemon.whenCaughtUp();
  const a = await first.tool('memory_remember', { content: 'Alice keeps a marmoset named Pip', wait_indexed: true });
  t.equal(a.status, 200, JSON.stringify(a.body));
  const b = await first.tool('memory_remember', { content: 'Bob keeps a pangolin named Kiwi', wait_indexed: true });
  t.equal(b.status, 200, JSON.stringify(b.body));
  await first.stop();

  const day = path.basename(a.body.path, '.md');
  const tombstone = { fact: 'Alice keeps a marmoset named Pip', at: new Date().toISOString(), through: `${day}:999` };
  appendFileSync(path.join(v.dir, 'Memory/tombstones.jsonl'), `${JSON.stringify(tombstone)}\n`);

  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const found = async (q: string) =>
    (await d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: { snippet: string }) => r.snippet);
  t.same(await found('marmoset'), [], 'the forgotten fact is not found');
  t.equal((await found('pangolin')).length, 1, 'the other fact is');

  // and a start with nothing new reads no log again: the tombstones it applied are recorded
  await d.stop();
  const again = await startDaemon(cfg);
  t.teardown(() => again.stop());
  await again.daemon.whenCaughtUp();
  t.same(
    (await again.search('marmoset', { mode: 'bm25', filters: { source_type: 'fact' } })).results,
    [],
    'still forgotten after another start',
  );
});
