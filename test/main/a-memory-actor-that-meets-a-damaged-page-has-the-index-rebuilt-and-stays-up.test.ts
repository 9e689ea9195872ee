// A damaged page of the index file met by the memory actor, which looks an episode's chunks up by content hash
// (memory_chunks_hash) to reuse stored vectors before it sends the episode to the store writer, so it is the first to
// read that page. It went down on it (and main saw "worker_error: [object Object]", not SQLITE_CORRUPT, and rebuilt
// nothing), then, with the error's code kept, at every restart until the swap, its replay meeting the page again: on
// a loaded machine a rebuild outlasted five restarts and the ingest supervisor gave up. It now asks main for the
// rebuild itself and holds its projection still until the swap's rescan replays the journal into the new file: it
// never goes down, and the episode answered meanwhile is found.
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, startDaemon, within } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

t.test('a memory actor that meets a damaged page has the index rebuilt, stays up, and loses nothing', { timeout: 180_000 }, async (t) => {
  const { cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_chunks_hash');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const escalated: string[] = [];
  const down: string[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.escalated') escalated.push(e.child);
    if (e.type === 'supervisor.child_exited' && !e.expected) down.push(`${e.child}: ${JSON.stringify(e.exit)}`);
  });
  const rebuilt = d.daemon.nextReindex();
  // an open task reuses a stored vector of its text when there is one: the memory actor reads the damaged page
  const sent = await d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'task', task_id: 'T-2', title: 'Sweep the kiln room k4k', status: 'open' }],
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  const done = await within(rebuilt, 60_000, 'the rebuild the memory actor asks for when it meets a damaged page');
  t.ok(done.ok, `main rebuilt the index: ${JSON.stringify(done)}`);
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('k4k', { mode: 'bm25' })).results[0]?.task_id, 'T-2', 'the episode answered meanwhile is found');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', 'the episode indexed before is found');
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'the notes are found');
  const sources = (await d.api('GET', '/v1/status')).body.index.sources;
  t.same(sources, { task: 2, vault: 30 }, 'every note and episode is indexed');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
  t.same(down, [], 'no actor went down');
  t.same(escalated, [], 'no supervisor gave up');
});
