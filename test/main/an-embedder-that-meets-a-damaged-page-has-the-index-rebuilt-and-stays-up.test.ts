// A damaged page of the index file met by the embedder, whose vector cache looks chunks up by their content hash:
// it crashed on every note it touched until a search or a write met the damage too; then main had the index
// rebuilt on its first crash, but it still went down on each note until the swap, a restart each — on a large vault,
// whose rebuild takes minutes, a burst of edits could exceed its supervisor's restart intensity. It now asks for the
// rebuild itself and embeds the notes without its cache meanwhile: it never goes down, and every note, the burst's
// too, is found by keyword and by meaning after the swap.
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, startDaemon } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

const BURST = ['kiln', 'shelf', 'cone', 'slip', 'glaze', 'wedge'].map((w, i) => ({
  path: `Inbox/${w}.md`,
  word: `b${i}x${w}`,
}));

t.test('an embedder that meets a damaged page has the index rebuilt, stays up, and loses nothing', { timeout: 180_000 }, async (t) => {
  const { v, cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_chunks_hash');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const escalated: string[] = [];
  const embedderDown: string[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.escalated') escalated.push(e.child);
    if (e.type === 'supervisor.child_exited' && e.child === 'embedder' && !e.expected) embedderDown.push(JSON.stringify(e.exit));
  });
  const rebuilt = d.daemon.nextReindex();
  // embedding a note asks the vector cache (memory_chunks_hash) first: the damaged page
  for (const b of BURST) v.write(b.path, `# ${b.word}\n\nThe ${b.word} batch waits for the potter to come back from the market.\n`);
  const done = await rebuilt;
  t.ok(done.ok, `the daemon rebuilt the index without a search or a write meeting the damage: ${JSON.stringify(done)}`);
  await d.daemon.whenCaughtUp();
  for (const b of BURST) {
    t.equal((await d.search(b.word, { mode: 'bm25' })).results[0]?.path, b.path, `${b.path} is found by keyword`);
    const byMeaning = (await d.search(`The ${b.word} batch waits for the potter`, { mode: 'vector', k: 20 })).results;
    t.ok(
      byMeaning.some((r: { path: string }) => r.path === b.path),
      `${b.path} has its vector (found by a vector search)`,
    );
  }
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'the notes indexed before are found');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', "the journal's episode is back");
  t.equal((await d.api('GET', '/v1/status')).body.index.sources.vault, 30 + BURST.length, 'every note is indexed');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
  t.same(embedderDown, [], 'the embedder never went down');
  t.same(escalated, [], 'no supervisor gave up');
});
