// Two `POST /v1/reindex` at once (an operator retrying a `memvault reindex` that seemed stuck) share one build: the
// second no longer deletes the half-built index.next.sqlite under the first, which swapped in a file a second
// pipeline was still writing and left every search and status answering `The database connection is not open`.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const files: Record<string, string> = {};
const N = 400;
for (let i = 0; i < N; i++)
  files[`Projects/note-${i}.md`] =
    `# Note ${i}\n\nThe kiln number ${i} fires glaze batch k${i}x at cone six.\n\n## More\n\nWeaving loom ${i}.\n`;

t.test('two reindexes at once both answer and the daemon keeps serving the index they built', async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();

  // the second arrives while the first is half way: its build file exists and holds some notes already
  const first = d.api('POST', '/v1/reindex', {});
  const next = path.join(cfg.data_dir, 'index.next.sqlite');
  const wal = `${next}-wal`;
  for (let i = 0; i < 600 && !(existsSync(wal) && statSync(wal).size > 200_000); i++) await new Promise((r) => setTimeout(r, 50));
  t.ok(existsSync(next), 'the first build is under way');
  const [a, b] = await Promise.all([first, d.api('POST', '/v1/reindex', {})]);
  t.equal(a.status, 200, JSON.stringify(a.body));
  t.equal(b.status, 200, JSON.stringify(b.body));
  t.equal(a.body.documents, N);
  t.equal(b.body.documents, N);

  const st = await d.api('GET', '/v1/status');
  t.equal(st.status, 200, JSON.stringify(st.body));
  t.equal(st.body.index.documents, N + 0, 'the swapped-in index holds every note');
  const r = await d.search('k17x', { mode: 'bm25' });
  t.equal(r.results[0]?.path, 'Projects/note-17.md', 'searches answer from the new index');

  // the live pipeline still writes to the file that was swapped in
  const done = d.daemon.nextDone('Inbox/after.md', 'indexed');
  v.write('Inbox/after.md', '# After\n\nA note about onion skin dye written after the reindexes.\n');
  await done;
  t.equal((await d.search('onion skin dye', { mode: 'bm25' })).results[0]?.path, 'Inbox/after.md');
  t.ok(allZero(await indexConsistency(cfg.data_dir)), 'chunks, FTS and vectors agree');
});
