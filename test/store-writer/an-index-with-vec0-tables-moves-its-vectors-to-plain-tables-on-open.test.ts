// Schema 3 keeps vectors in plain tables (sqlite-vec's vec0 point lookups were ~15× slower to re-score from): an index
// written by an earlier memvault, with vec0 tables, is migrated on open with every vector as it was.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { openIndex, SCHEMA_VERSION } from '../../actors/store-writer/schema.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const DIM = 16;

t.test('vec0 vector tables become plain tables with the same vectors, and search and the log work on them', async (t) => {
  const ix = tempIndex(t, { dim: DIM });
  const r = rng(3);
  for (let d = 0; d < 20; d++) {
    ix.writer.upsertDocument(doc(`n${d}.md`, [chunk(0, `note ${d}`, { vector: randomUnit(DIM, r) }), chunk(1, `more ${d}`)]));
  }
  const rows = (sql: string) => ix.db.prepare(sql).all();
  const vectors = rows('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors ORDER BY chunk_id');
  const bits = rows('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors_bit ORDER BY chunk_id');
  const q = randomUnit(DIM, r);
  const before = search(ix.db, { query: '', k: 5, mode: 'vector', group: 'chunk' }, q).map((h) => [h.chunkId, h.score]);

  // What schema 2 wrote: vec0 tables, their delete trigger, no vector log.
  ix.db.exec(`
    DROP TABLE memory_vectors; DROP TABLE memory_vectors_bit; DROP TABLE memory_vector_log; DROP TRIGGER memory_chunks_vec_ad;
    CREATE VIRTUAL TABLE memory_vectors USING vec0(chunk_id INTEGER PRIMARY KEY, embedding float[${DIM}] distance_metric=cosine, chunk_size=64);
    CREATE VIRTUAL TABLE memory_vectors_bit USING vec0(chunk_id INTEGER PRIMARY KEY, embedding bit[${DIM}], chunk_size=4096);
    CREATE TRIGGER memory_chunks_vec_ad AFTER DELETE ON memory_chunks BEGIN
      DELETE FROM memory_vectors WHERE chunk_id = old.id;
      DELETE FROM memory_vectors_bit WHERE chunk_id = old.id;
    END;
    PRAGMA user_version = 2;`);
  const put = ix.db.prepare('INSERT INTO memory_vectors (chunk_id, embedding) VALUES (?, ?)');
  const putBits = ix.db.prepare('INSERT INTO memory_vectors_bit (chunk_id, embedding) VALUES (?, vec_bit(?))');
  // vec0 refuses keys bound as floats, which is how a JS number binds
  for (const v of vectors as Array<{ chunk_id: number; e: string }>) put.run(BigInt(v.chunk_id), Buffer.from(v.e, 'hex'));
  for (const b of bits as Array<{ chunk_id: number; e: string }>) putBits.run(BigInt(b.chunk_id), Buffer.from(b.e, 'hex'));
  ix.db.close();

  const db = openIndex(ix.file, { readonly: false });
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.notMatch(
    db.prepare(`SELECT group_concat(sql) FROM sqlite_master WHERE name IN ('memory_vectors', 'memory_vectors_bit')`).pluck().get(),
    /VIRTUAL/,
    'plain tables',
  );
  t.same(db.prepare('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors ORDER BY chunk_id').all(), vectors, 'the same float vectors');
  t.same(db.prepare('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors_bit ORDER BY chunk_id').all(), bits, 'the same bits');
  t.equal(
    db.prepare(`SELECT count(*) FROM sqlite_master WHERE name LIKE '%vec0%' OR sql LIKE '%vec0%'`).pluck().get(),
    0,
    'no vec0 table left',
  );
  const reader = new IndexReader(db);
  t.ok(
    Object.values(reader.consistency()).every((n) => n === 0),
    'consistent',
  );
  t.same(
    search(db, { query: '', k: 5, mode: 'vector', group: 'chunk' }, q).map((h) => [h.chunkId, h.score]),
    before,
    'vector search answers as before',
  );
  db.prepare(`DELETE FROM memory_chunks WHERE id = ?`).run((vectors[0] as { chunk_id: number }).chunk_id);
  t.equal(db.prepare('SELECT count(*) FROM memory_vectors').pluck().get(), vectors.length - 1, "a chunk's delete takes its vectors");
  t.same(
    db.prepare('SELECT chunk_id FROM memory_vector_log ORDER BY seq').pluck().all(),
    [null, (vectors[0] as { chunk_id: number }).chunk_id],
    'and is logged, after the reset schema 5 logged when it added the 4-bit codes',
  );
});
