// Renaming a note moves its row in place: chunks and vectors stay (no re-embedding), FTS sees the new title.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, randomUnit, rng, snapshot, tempIndex } from '../helpers/index-fixture.js';

const r = rng(4);

t.test('rename keeps chunk ids and vectors and updates path, title and stat', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.upsertDocument(
    doc(
      'old/name.md',
      [chunk(0, 'content about otters', { vector: randomUnit(16, r) }), chunk(1, 'more otters', { vector: randomUnit(16, r) })],
      { title: 'Old Title' },
    ),
  );
  const chunksBefore = db.prepare('SELECT * FROM memory_chunks ORDER BY id').all();
  const vectorsBefore = db.prepare('SELECT chunk_id, hex(embedding) FROM memory_vectors ORDER BY chunk_id').all();

  t.equal(writer.renameDocument('vault', 'old/name.md', 'new/place.md', 'Zebra Crossing', 5555, 321), true);
  t.same(db.prepare('SELECT * FROM memory_chunks ORDER BY id').all(), chunksBefore);
  t.same(db.prepare('SELECT chunk_id, hex(embedding) FROM memory_vectors ORDER BY chunk_id').all(), vectorsBefore);
  t.equal(writer.reader.document('vault', 'old/name.md'), null);
  const d = writer.reader.document('vault', 'new/place.md')!;
  t.equal(d.title, 'Zebra Crossing');
  t.equal(d.mtimeMs, 5555);
  t.equal(d.size, 321);

  const byTitle = search(db, { query: 'zebra', k: 5, mode: 'bm25' }, null);
  t.same(
    byTitle.map((h) => h.path),
    ['new/place.md', 'new/place.md'],
    'the new title is searchable in every chunk',
  );
  t.same(search(db, { query: 'Old Title', k: 5, mode: 'bm25' }, null), [], 'the old title is gone');
  t.same(Object.values(writer.reader.consistency()), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
});

t.test('renaming onto a live or deleted note replaces it', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.upsertDocument(doc('a.md', [chunk(0, 'apples', { vector: randomUnit(16, r) })]));
  writer.upsertDocument(doc('b.md', [chunk(0, 'bananas', { vector: randomUnit(16, r) })]));
  writer.upsertDocument(doc('c.md', [chunk(0, 'cherries', { vector: randomUnit(16, r) })]));
  writer.deleteDocument('vault', 'c.md');

  t.equal(writer.renameDocument('vault', 'a.md', 'b.md', 'b', 1, 1), true, 'onto a live note');
  t.same(db.prepare('SELECT source_id FROM memory_documents ORDER BY source_id').pluck().all(), ['b.md', 'c.md']);
  t.same(
    search(db, { query: 'apples bananas', k: 5, mode: 'bm25' }, null).map((h) => [h.path, h.snippet]),
    [['b.md', 'apples']],
  );

  t.equal(writer.renameDocument('vault', 'b.md', 'c.md', 'c', 1, 1), true, 'onto a deleted note');
  const rows = db.prepare('SELECT source_id, deleted_at FROM memory_documents').all();
  t.same(rows, [{ source_id: 'c.md', deleted_at: null }]);
  t.equal(writer.reader.counts().vectors, 1);
  t.same(Object.values(writer.reader.consistency()), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
});

t.test('renaming a note to its own path updates the title and stat only', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.upsertDocument(doc('a.md', [chunk(0, 'x')]));
  const before = snapshot(db) as { chunks: unknown };
  t.equal(writer.renameDocument('vault', 'a.md', 'a.md', 'New', 9, 9), true);
  t.same((snapshot(db) as { chunks: unknown }).chunks, before.chunks);
  t.equal(writer.reader.document('vault', 'a.md')!.title, 'New');
});
