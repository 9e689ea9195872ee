// Schema 6 keeps the index's document counts (by user and source type) and its chunk count in tables of their own,
// written by triggers, so the index state a search answers with is two small reads. An index written by schema 5
// gains them on open, counted from its rows, and they follow the writes after that.
import t from 'tap';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex, SCHEMA_VERSION } from '../../actors/store-writer/schema.js';
import { chunk, doc, tempIndex, testModel } from '../helpers/index-fixture.js';

t.test('a schema-5 index gains its counts on open, and they follow the writes', async (t) => {
  const ix = tempIndex(t);
  for (let d = 0; d < 12; d++) ix.writer.upsertDocument(doc(`n${d}.md`, [chunk(0, `note ${d}`), chunk(1, `more ${d}`)]));
  ix.writer.upsertDocument(doc('chat-1', [chunk(0, 'a chat turn')], { sourceType: 'chat' }));
  ix.writer.deleteDocument('vault', 'n0.md');
  ix.clock.advance(5);
  const other = new IndexWriter(ix.db, { model: testModel(16), chunkerVersion: 'test-1', now: ix.clock.now, userId: 'bob' });
  other.upsertDocument(doc('bob.md', [chunk(0, 'bob writes'), chunk(1, 'twice'), chunk(2, 'thrice')]));
  const before = ix.writer.reader.countsWithSources(0);
  t.same(before, {
    counts: { documents: 12, chunks: 26, vectors: 0, deleted: 1, lastIndexedAt: ix.clock.now() - 5 },
    bySource: { vault: 11, chat: 1 },
  });

  // what schema 5 had: neither table nor their triggers
  ix.db.exec(`
    DROP TRIGGER memory_documents_count_ai; DROP TRIGGER memory_documents_count_ad; DROP TRIGGER memory_documents_count_au;
    DROP TRIGGER memory_chunks_count_ai; DROP TRIGGER memory_chunks_count_ad;
    DROP TABLE document_counts; DROP TABLE chunk_count;
    PRAGMA user_version = 5;`);
  ix.db.close();

  const db = openIndex(ix.file, { readonly: false });
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.same(new IndexReader(db).countsWithSources(0), before, 'counted from the rows');
  t.same(new IndexReader(db, { userId: 'bob' }).countsWithSources(0).bySource, { vault: 1 }, "each user's own");
  t.equal(new IndexReader(db).consistency().countsDrift, 0);

  const later = ix.clock.now() + 1000;
  const w = new IndexWriter(db, { model: testModel(16), chunkerVersion: 'test-1', now: () => later });
  w.upsertDocument(doc('n0.md', [chunk(0, 'back again')])); // revives the deleted one
  w.hardDeleteDocument('chat', 'chat-1');
  w.renameDocument('vault', 'n1.md', 'n2.md', 'n2', 1, 1); // onto a live note: n2 is replaced
  t.same(new IndexReader(db).countsWithSources(0), {
    counts: { documents: 11, chunks: 24, vectors: 0, deleted: 0, lastIndexedAt: later },
    bySource: { vault: 11 },
  });
  t.equal(new IndexReader(db).consistency().countsDrift, 0, 'the triggers kept them');
  db.exec(`UPDATE chunk_count SET n = n + 1; UPDATE document_counts SET live = live - 1 WHERE user_id = 'bob'`);
  t.equal(new IndexReader(db).consistency().countsDrift, 2, 'a count that drifted is found');
});
