// A damaged page of the index file met by an actor that does not ask for the rebuild itself (the gateway, the store
// writer and the embedder do): main has the index rebuilt when the actor goes down on it (main/actor-events.ts). The
// memory actor looks an episode's chunks up by content hash (memory_chunks_hash) to reuse stored vectors before it
// sends the episode to the store writer, so it is the first to read that page. Its read fails in a step no message
// handler awaits, and the SqliteError crossed from its thread as its own fields alone: main saw
// "worker_error: [object Object]", not SQLITE_CORRUPT, and never rebuilt the index, and the episode, answered 200,
// was not found. The crash keeps its code now: the rebuild runs and the episode is found. Until the swap the memory
// actor goes down again at each restart (its replay meets the page again), so the supervisor is let restart it more
// often than by default: on a slow machine the rebuild can outlast five restarts (the default intensity).
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, startDaemon, within } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

t.test('a memory actor that goes down on a damaged page has the index rebuilt and loses nothing', { timeout: 180_000 }, async (t) => {
  const { cfg } = await indexedThenStopped(t, 'supervisor:\n  intensity: 50\n');
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_chunks_hash');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const escalated: string[] = [];
  const down: Array<{ actor: string; kind: string }> = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.escalated') escalated.push(e.child);
    if (e.type === 'supervisor.child_exited' && !e.expected)
      down.push({ actor: e.child, kind: e.exit.kind === 'crash' ? e.exit.error.kind : e.exit.kind });
  });
  const rebuilt = d.daemon.nextReindex();
  // an open task reuses a stored vector of its text when there is one: the memory actor reads the damaged page
  const sent = await d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'task', task_id: 'T-2', title: 'Sweep the kiln room k4k', status: 'open' }],
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  const done = await within(rebuilt, 60_000, 'the rebuild main starts when an actor goes down on a damaged page');
  t.ok(done.ok, `main rebuilt the index: ${JSON.stringify(done)}`);
  t.ok(down.length > 0, 'an actor went down');
  t.same(
    down.filter((x) => x.actor !== 'memory' || !/^SQLITE_CORRUPT/.test(x.kind)),
    [],
    `only the memory actor went down, each time on the damaged page: ${JSON.stringify(down)}`,
  );
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('k4k', { mode: 'bm25' })).results[0]?.task_id, 'T-2', 'the episode answered meanwhile is found');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', 'the episode indexed before is found');
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'the notes are found');
  const sources = (await d.api('GET', '/v1/status')).body.index.sources;
  t.same(sources, { task: 2, vault: 30 }, 'every note and episode is indexed');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
  t.same(escalated, [], 'no supervisor gave up');
});
