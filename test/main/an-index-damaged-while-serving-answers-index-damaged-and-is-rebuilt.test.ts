// An index file whose pages are damaged on disk while it still opens (so the start's check lets it through) made every
// search, tool call and `memvault status` answer `internal: database disk image is malformed` until someone ran
// reindex, and a write into the damaged pages crashed the store writer until its supervisor gave up. The gateway now
// answers `index_damaged` (503, a tool error of that reason), the store writer drops such a write, and either has main
// rebuild the index from the vault and the episode journal; once swapped in, searches answer again and nothing is lost.
import path from 'node:path';
import t, { type Test } from 'tap';
import { allZero, indexConsistency, startDaemon } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

/** A daemon over an index whose keyword postings are damaged, with a task in its journal; and its restarts. */
async function damagedDaemon(t: Test) {
  const { v, cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_fts_data');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  const restarts: string[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.child_restarted' || e.type === 'supervisor.escalated') restarts.push(`${e.type} ${e.child}`);
  });
  return { v, cfg, d, restarts, rebuilt: d.daemon.nextReindex() };
}

/** After the rebuild: every note and the journal's task found, the index consistent. */
async function nothingLost(t: Test, s: Awaited<ReturnType<typeof damagedDaemon>>, notes: number): Promise<void> {
  const done = await s.rebuilt;
  t.ok(done.ok, `the daemon rebuilt the index by itself: ${JSON.stringify(done)}`);
  await s.d.daemon.whenCaughtUp();
  t.equal((await s.d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'searches answer again');
  t.equal((await s.d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', "the journal's episode is back");
  t.equal((await s.d.api('GET', '/v1/status')).body.index.sources.vault, notes, 'every note is indexed');
  t.ok(allZero(await indexConsistency(s.cfg.data_dir)));
}

t.test('a search over a damaged page answers index_damaged and the daemon rebuilds the index', { timeout: 180_000 }, async (t) => {
  const s = await damagedDaemon(t);
  const r = await s.d.api('POST', '/v1/search', { query: 'g17q', mode: 'bm25' });
  t.equal(r.status, 503, JSON.stringify(r.body));
  t.equal(r.body.error?.reason, 'index_damaged');
  t.match(r.body.error?.message, /rebuilding it from the vault and the episode journal/);
  const tool = await s.d.tool('memory_search', { query: 'g17q', mode: 'bm25' });
  t.equal(tool.status, 503, 'a tool call says the same');
  t.equal(tool.body.error?.reason, 'index_damaged');
  await nothingLost(t, s, 30);
});

t.test('a write into a damaged page is dropped, not a crash loop, and the rebuild indexes it', { timeout: 180_000 }, async (t) => {
  const s = await damagedDaemon(t);
  // its keyword rows go into the damaged pages: the store writer crashed on it, again at every redelivery
  const settled = s.d.daemon.nextDone('Inbox/slip.md');
  s.v.write('Inbox/slip.md', '# Slip\n\nCasting slip s9s needs a day to settle.\n');
  t.equal((await settled).outcome, 'failed', 'the store writer let the path go');
  await nothingLost(t, s, 31);
  t.equal((await s.d.search('s9s', { mode: 'bm25' })).results[0]?.path, 'Inbox/slip.md', 'the note written meanwhile is found');
  t.same(s.restarts, [], 'no actor was restarted');
});
