// Re-indexing an edited note keeps the rows of unchanged chunks (ids, FTS, vectors) and replaces the rest.
import t from 'tap';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(2);

interface Row {
  id: number;
  seq: number;
  content: string;
  start_line: number;
}

t.test('an edit replaces only the changed chunk and moves the unchanged ones in place', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const [va, vb, vc] = [randomUnit(16, r), randomUnit(16, r), randomUnit(16, r)];
  writer.upsertDocument(
    doc('n.md', [chunk(0, 'intro text', { vector: va }), chunk(1, 'old middle', { vector: vb }), chunk(2, 'the end', { vector: vc })]),
  );
  const before = db.prepare('SELECT id, seq, content, start_line FROM memory_chunks ORDER BY seq').all() as Row[];
  const createdAt = new IndexReader(db).document('vault', 'n.md')!.createdAt;

  clock.advance(1000);
  const vNew = randomUnit(16, r);
  const res = writer.upsertDocument(
    doc('n.md', [
      chunk(0, 'intro text', { vector: va }),
      chunk(1, 'new middle', { vector: vNew }),
      chunk(2, 'an extra part'),
      chunk(3, 'the end', { vector: null, line: 99 }),
    ]),
  );
  t.equal(res.chunks, 4);
  const after = db.prepare('SELECT id, seq, content, start_line FROM memory_chunks ORDER BY seq').all() as Row[];
  t.same(
    after.map((x) => x.content),
    ['intro text', 'new middle', 'an extra part', 'the end'],
  );
  t.equal(after[0]!.id, before[0]!.id, 'unchanged first chunk keeps its row');
  t.equal(after[3]!.id, before[2]!.id, 'unchanged last chunk keeps its row though it moved');
  t.equal(after[3]!.start_line, 99, 'and its lines are updated');
  t.not(after[1]!.id, before[1]!.id, 'changed chunk is a new row');

  const vecIds = db.prepare('SELECT chunk_id FROM memory_vectors ORDER BY chunk_id').pluck().all() as number[];
  t.same(
    vecIds,
    [after[0]!.id, after[1]!.id, after[3]!.id].sort((a, b) => a - b),
    'a null vector keeps the stored one; no vector for the keyword-only chunk',
  );
  t.same(writer.reader.consistency(), {
    chunksWithoutFts: 0,
    ftsWithoutChunk: 0,
    ftsStale: 0,
    pairsMissing: 0,
    pairsWithoutChunk: 0,
    vectorsWithoutChunk: 0,
    vectorPairMismatch: 0,
    chunksOfDeletedDocs: 0,
    countsDrift: 0,
  });

  const d = writer.reader.document('vault', 'n.md')!;
  t.equal(d.createdAt, createdAt, 'created_at stays');
  t.equal(d.updatedAt, clock.now(), 'updated_at moves with the content');
  t.equal(d.indexedAt, clock.now());
});

t.test('a chunk stored without a vector gets one when the note is upserted again with vectors', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.upsertDocument(doc('n.md', [chunk(0, 'keyword only for now')]));
  t.equal(writer.reader.counts().vectors, 0);
  t.same(writer.reader.documentsMissingVectors('vault'), ['n.md']);
  const id = db.prepare('SELECT id FROM memory_chunks').pluck().get();
  writer.upsertDocument(doc('n.md', [chunk(0, 'keyword only for now', { vector: randomUnit(16, r) })]));
  t.equal(db.prepare('SELECT id FROM memory_chunks').pluck().get(), id, 'same chunk row');
  t.equal(writer.reader.counts().vectors, 1);
  t.same(writer.reader.documentsMissingVectors('vault'), []);
});

t.test('same content with new stat, title, tags and sensitivity updates the document only', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const chunks = [chunk(0, 'body', { vector: randomUnit(16, r) })];
  writer.upsertDocument(doc('n.md', chunks, { contentHash: 'h1' }));
  const updatedAt = writer.reader.document('vault', 'n.md')!.updatedAt;
  clock.advance(5);
  writer.upsertDocument(doc('n.md', chunks, { contentHash: 'h1', title: 'Renamed Title', tags: ['x'], sensitive: true, mtimeMs: 77 }));
  const d = writer.reader.document('vault', 'n.md')!;
  t.equal(d.title, 'Renamed Title');
  t.same(d.tags, ['x']);
  t.equal(d.sensitive, true);
  t.equal(d.mtimeMs, 77);
  t.equal(d.updatedAt, updatedAt, 'content hash unchanged: updated_at stays');
  t.equal(db.prepare('SELECT title FROM memory_fts').pluck().get(), 'Renamed Title', 'FTS follows the title');
});

t.test('a vector of the wrong length is a bug and writes nothing', async (t) => {
  const { db, writer } = tempIndex(t);
  t.throws(() => writer.upsertDocument(doc('n.md', [chunk(0, 'x', { vector: new Float32Array(8) })])), /8 floats.*needs 16/);
  t.equal(db.prepare('SELECT count(*) FROM memory_documents').pluck().get(), 0);
});

t.test('a vector given to an index with no model is a bug', async (t) => {
  const { writer } = tempIndex(t, { dim: null });
  t.throws(() => writer.upsertDocument(doc('n.md', [chunk(0, 'x', { vector: new Float32Array(16) })])), /no model/);
  writer.upsertDocument(doc('n.md', [chunk(0, 'x')]));
  t.equal(writer.reader.counts().chunks, 1, 'keyword-only chunks are fine without a model');
});
