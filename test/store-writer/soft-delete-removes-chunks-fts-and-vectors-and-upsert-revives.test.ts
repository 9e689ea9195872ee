// Deleting a note keeps its row (deleted_at set) but removes its chunks, FTS rows and vectors; re-adding revives it.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(3);

t.test('soft delete leaves the row and nothing searchable', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  writer.upsertDocument(
    doc('gone.md', [chunk(0, 'ephemeral walrus', { vector: randomUnit(16, r) }), chunk(1, 'second walrus', { vector: randomUnit(16, r) })]),
  );
  writer.upsertDocument(doc('kept.md', [chunk(0, 'a walrus that stays', { vector: randomUnit(16, r) })]));
  clock.advance(10);
  t.equal(writer.deleteDocument('vault', 'gone.md'), true);

  const row = db.prepare(`SELECT deleted_at FROM memory_documents WHERE source_id = 'gone.md'`).get() as { deleted_at: number };
  t.equal(row.deleted_at, clock.now());
  t.same(writer.reader.counts(), { documents: 1, chunks: 1, vectors: 1, deleted: 1, lastIndexedAt: clock.now() - 10 });
  t.equal(db.prepare('SELECT count(*) FROM memory_fts').pluck().get(), 1);
  t.equal(db.prepare('SELECT count(*) FROM memory_vectors_bit').pluck().get(), 1);
  t.equal(writer.reader.document('vault', 'gone.md'), null);
  t.notOk(writer.reader.documentStats('vault').has('gone.md'));
  const hits = search(db, { query: 'walrus', k: 10, mode: 'bm25' }, null);
  t.same(
    hits.map((h) => h.path),
    ['kept.md'],
  );
  t.same(Object.values(writer.reader.consistency()), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
});

t.test('upserting a deleted note revives the same row with fresh chunks', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const { documentId } = writer.upsertDocument(doc('n.md', [chunk(0, 'first life')]));
  writer.deleteDocument('vault', 'n.md');
  clock.advance(100);
  const again = writer.upsertDocument(doc('n.md', [chunk(0, 'second life')]));
  t.equal(again.documentId, documentId);
  const d = writer.reader.document('vault', 'n.md')!;
  t.equal(d.createdAt, clock.now(), 'a revived note is new again');
  t.same(db.prepare('SELECT content FROM memory_chunks').pluck().all(), ['second life']);
  t.same(
    search(db, { query: 'life', k: 5, mode: 'bm25' }, null).map((h) => h.snippet),
    ['second life'],
  );
});

t.test('a chunk can never be attached to a deleted document', async (t) => {
  const { db, writer } = tempIndex(t);
  const { documentId } = writer.upsertDocument(doc('n.md', [chunk(0, 'x')]));
  writer.deleteDocument('vault', 'n.md');
  t.throws(
    () =>
      db
        .prepare(
          `INSERT INTO memory_chunks (document_id, seq, content, token_count, heading_path, start_line, end_line, content_hash) VALUES (?, 0, 'x', 1, '[]', 1, 1, 'h')`,
        )
        .run(documentId),
    /deleted document/,
  );
});
