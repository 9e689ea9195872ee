// Live changes on disk reach the index: edits, atomic-save editors, renames (no re-embedding) and deletes.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, daemonOn } from '../helpers/daemon.js';

const A = '# Garden\n\nThe tomatoes need staking before the storm on Friday.\n';
const B =
  '# Harbor log\n\nThe ferry schedule changes in winter; the last boat leaves at nine.\n\n## Crew\n\nMarta runs the morning shift.\n';

t.test('edits, atomic saves, renames and deletes are reflected in search', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/garden.md': A, 'Projects/harbor.md': B });
  const paths = (r: { results: Array<{ path: string }> }) => r.results.map((h) => h.path);

  // a plain edit
  let done = d.daemon.nextDone('Inbox/garden.md', 'indexed');
  v.write('Inbox/garden.md', '# Garden\n\nThe cucumbers climb the trellis by the shed.\n');
  await done;
  t.same(paths(await d.search('cucumbers trellis', { mode: 'bm25' })), ['Inbox/garden.md'], 'the edit is searchable');
  t.same(paths(await d.search('tomatoes staking', { mode: 'bm25' })), [], 'the old text is gone');

  // an editor's atomic save: write a temp file, rename it over the note
  const deletions: string[] = [];
  const off = d.daemon.onRouted((m) => {
    if (m.type === 'watcher.done' && m.outcome === 'deleted') deletions.push(m.path);
  });
  done = d.daemon.nextDone('Inbox/garden.md', 'indexed');
  const tmp = path.join(v.dir, 'Inbox/.garden.md.tmp');
  writeFileSync(tmp, '# Garden\n\nPumpkins sprawl across the compost heap.\n');
  renameSync(tmp, path.join(v.dir, 'Inbox/garden.md'));
  await done;
  t.same(paths(await d.search('pumpkins compost', { mode: 'bm25' })), ['Inbox/garden.md'], 'the saved text is indexed');
  t.same(deletions, [], 'the note was never deleted on the way');
  off();

  // a rename keeps the vectors: no model call
  const callsBefore = d.daemon.board.get('embedCalls');
  done = d.daemon.nextDone('Projects/harbor-2026.md', 'renamed');
  renameSync(path.join(v.dir, 'Projects/harbor.md'), path.join(v.dir, 'Projects/harbor-2026.md'));
  await done;
  const r = await d.search('when does the last ferry leave', { mode: 'vector', k: 3 });
  t.equal(r.results[0]?.path, 'Projects/harbor-2026.md', 'found under its new path');
  t.notOk(paths(r).includes('Projects/harbor.md'), 'not under the old one');
  t.equal(d.daemon.board.get('embedCalls'), callsBefore, 'no embedding call for a rename');

  // a delete removes the note's chunks, vectors and FTS rows
  done = d.daemon.nextDone('Inbox/garden.md', 'deleted');
  rmSync(path.join(v.dir, 'Inbox/garden.md'));
  await done;
  t.same(paths(await d.search('pumpkins compost', { mode: 'bm25' })), [], 'deleted notes are not found');
  const c = await indexConsistency(d.cfg.data_dir);
  t.ok(allZero(c), `tables agree: ${JSON.stringify(c)}`);
  t.equal((await d.api('GET', '/v1/status')).body.index.documents, 1);
});
