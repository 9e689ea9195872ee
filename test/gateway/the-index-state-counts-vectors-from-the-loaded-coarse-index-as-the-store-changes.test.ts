// The index state every search answers with counts the vectors from the gateway's coarse index once it is loaded (the
// warm-up or a vector search loads it; counting the float table read every page of it: ~1 s cold at 100k chunks,
// after each store write), and the count still follows the store writer: adds, edits that drop vectors, deletes, and
// a count before the coarse index is loaded.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { Board } from '../../supervisors/runtime/board.js';
import { loadedCoarseIndex } from '../../actors/gateway/coarse-index.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const DIM = 16;
const limits: SearchLimits = { defaultK: 5, maxK: 10, minScore: 0, defaultMode: 'bm25', userId: 'default' };

t.test('vectors in the index state match the stored ones before and after the coarse index is loaded', async (t) => {
  const ix = tempIndex(t, { dim: DIM });
  const r = rng(7);
  const withVectors = (path: string, n: number, word: string) =>
    doc(
      path,
      Array.from({ length: n }, (_, i) => chunk(i, `${word} part ${i}`, { vector: randomUnit(DIM, r) })),
    );
  const board = new Board();
  const view = new IndexView(ix.file, board, limits);
  t.teardown(() => view.close());
  const stored = () => ix.db.prepare('SELECT count(*) FROM memory_vectors').pluck().get() as number;
  const wrote = () => board.add('storeWrites', 1); // what the store writer does after each transaction

  ix.writer.upsertDocument(withVectors('a.md', 3, 'kiln'));
  ix.writer.upsertDocument(withVectors('b.md', 2, 'glaze'));
  wrote();
  t.equal(view.state().vectors, 5, 'counted in the store before the coarse index is loaded');

  view.warm(); // what the gateway does once it listens
  t.equal((await view.search({ query: 'kiln' })).index.vectors, 5);

  ix.writer.upsertDocument(withVectors('c.md', 4, 'clay'));
  wrote();
  t.equal((await view.search({ query: 'clay' })).index.vectors, 9, 'an added note counts');
  t.equal(view.state().vectors, stored());

  // an edit whose new chunks have no vectors yet (the embedder has not run): their vectors are gone
  ix.writer.upsertDocument(doc('a.md', [chunk(0, 'kiln rewritten'), chunk(1, 'kiln again')]));
  wrote();
  t.equal(view.state().vectors, 6, 'an edit that drops vectors counts them out, read from the coarse index');
  t.equal(view.state().vectors, stored());

  ix.writer.deleteDocument('vault', 'b.md');
  wrote();
  t.equal((await view.search({ query: 'glaze' })).index.vectors, 4, 'a deleted note no longer counts');
  t.equal(view.state().vectors, stored());
  t.equal(view.state().chunks, 6);
  t.ok(loadedCoarseIndex(view.db), 'the counts above came with the coarse index loaded');
});
