// IndexView follows the board: its counts are recounted when the store writer's write counter moves, and its
// connection is reopened when indexGeneration moves (a reindex swapped a new file in), so readers see the new index.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { swapIndexFiles } from '../../actors/store-writer/swap.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 10, maxK: 20, minScore: 0, defaultMode: 'bm25', userId: 'default' };

t.test('counts change when the store writer says it wrote, while search sees rows at once', async (t) => {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(doc('a.md', [chunk(0, 'heron by the weir')]));
  ix.writer.upsertDocument(doc('b.md', [chunk(0, 'heron in the reeds'), chunk(1, 'a second chunk')]));
  const board = new Board();
  const view = new IndexView(ix.file, board, limits);
  t.teardown(() => view.close());
  t.match(view.state(), { documents: 2, chunks: 3 });

  ix.writer.upsertDocument(doc('c.md', [chunk(0, 'heron over the field')]));
  t.equal((await view.search({ query: 'heron' })).results.length, 3, 'search reads the new row at once');
  t.match(view.state(), { documents: 2, chunks: 3 }, 'the counts are kept until the store writer reports a write');
  board.add('storeWrites', 1);
  t.match(view.state(), { documents: 3, chunks: 4 }, 'and recounted once it does');

  board.set('pending', 4);
  board.set('inFlight', 2);
  board.set('filesTotal', 7);
  t.match(view.state(), { pending: 4, in_flight: 2, files_total: 7, reconciled: false }, 'progress comes from the board');
  board.set('reconciledAt', Date.now());
  t.equal(view.state().reconciled, true);
});

t.test('after a swap, the view reads the new file once indexGeneration moves', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-swap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const live = path.join(dir, 'index.sqlite');
  const next = path.join(dir, 'index.next.sqlite');
  const build = (file: string, docs: Array<[string, string]>): void => {
    const db = openIndex(file, { readonly: false });
    const w = new IndexWriter(db, { model: null, chunkerVersion: 'test-1', now: () => 1_700_000_000_000 });
    for (const [p, text] of docs) w.upsertDocument(doc(p, [chunk(0, text)]));
    db.close();
  };
  build(live, [['old.md', 'the old index remembers a heron']]);
  const board = new Board();
  const view = new IndexView(live, board, limits);
  t.teardown(() => view.close());
  const paths = async (): Promise<string[]> => (await view.search({ query: 'heron' })).results.map((h) => h.path ?? '').sort();
  t.same(await paths(), ['old.md']);

  build(next, [
    ['new-1.md', 'a heron in the new index'],
    ['new-2.md', 'another heron, rebuilt'],
  ]);
  swapIndexFiles(next, live); // what the store writer does for store.swap_index
  t.same(await paths(), ['old.md'], 'until the board says so, the open connection still reads the file it opened');
  t.match(view.state(), { documents: 1 });

  board.add('indexGeneration', 1);
  t.same(await paths(), ['new-1.md', 'new-2.md'], 'then it reopens and reads the swapped-in index');
  t.match(view.state(), { documents: 2, chunks: 2 }, 'and recounts it');
  t.equal(view.reader.counts().documents, 2, 'the reader it hands out reads the new file too');
});
