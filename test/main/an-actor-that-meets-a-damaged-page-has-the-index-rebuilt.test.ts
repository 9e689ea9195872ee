// A damaged page of the index file met by an actor other than the gateway and the store writer — here the embedder,
// whose vector cache looks chunks up by their content hash — crashed that actor on every note it touched, and nothing
// rebuilt the index until a search or a write happened to meet the damage too. Main now has it rebuilt on the first
// such crash; the note the embedder crashed on is indexed by the catch-up after the swap.
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, startDaemon } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

t.test('an embedder crash on a damaged page has the daemon rebuild the index, and nothing is lost', { timeout: 180_000 }, async (t) => {
  const { v, cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_chunks_hash');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const escalated: string[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.escalated') escalated.push(e.child);
  });
  const rebuilt = d.daemon.nextReindex();
  // embedding it asks the vector cache (memory_chunks_hash) first: the damaged page
  v.write('Inbox/slip.md', '# Slip\n\nCasting slip s9s needs a day to settle.\n');
  const done = await rebuilt;
  t.ok(done.ok, `the daemon rebuilt the index without a search or a write meeting the damage: ${JSON.stringify(done)}`);
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('s9s', { mode: 'bm25' })).results[0]?.path, 'Inbox/slip.md', 'the note the embedder crashed on is found');
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'the notes indexed before are found');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', "the journal's episode is back");
  t.equal((await d.api('GET', '/v1/status')).body.index.sources.vault, 31, 'every note is indexed');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
  t.same(escalated, [], 'no supervisor gave up');
});
