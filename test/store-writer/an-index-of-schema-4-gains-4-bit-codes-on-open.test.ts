// Schema 5 stores each vector's 4-bit codes beside its sign bits: an index written by schema 4 (bits only) gains
// them on open, computed from its float vectors, with its bits, vectors and search answers as they were, and the
// vector log told that every vector changed (a reader reloads).
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { nibbleCodes } from '../../actors/store-writer/nibble-codes.js';
import { openIndex, SCHEMA_VERSION } from '../../actors/store-writer/schema.js';
import { VECTOR_LOG_TRIGGERS_SQL } from '../../actors/store-writer/vector-log.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const DIM = 48;

t.test('a schema-4 index gains the codes of its stored vectors on open', async (t) => {
  const ix = tempIndex(t, { dim: DIM });
  const r = rng(9);
  for (let d = 0; d < 30; d++) {
    ix.writer.upsertDocument(doc(`n${d}.md`, [chunk(0, `note ${d}`, { vector: randomUnit(DIM, r) }), chunk(1, `more ${d}`)]));
  }
  const rows = (sql: string) => ix.db.prepare(sql).all();
  const vectors = rows('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors ORDER BY chunk_id') as Array<{
    chunk_id: number;
    e: string;
  }>;
  const bits = rows('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors_bit ORDER BY chunk_id');
  const q = randomUnit(DIM, r);
  const before = search(ix.db, { query: '', k: 5, mode: 'vector', group: 'chunk' }, q).map((h) => [h.chunkId, h.score]);

  // What schema 4 had: the bit table without codes, its log triggers, and the delete trigger naming it.
  ix.db.exec(`
    DROP TRIGGER memory_chunks_vec_ad;
    CREATE TABLE bits4 (chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL CHECK (length(embedding) = ${DIM / 8}));
    INSERT INTO bits4 SELECT chunk_id, embedding FROM memory_vectors_bit;
    DROP TABLE memory_vectors_bit;
    ALTER TABLE bits4 RENAME TO memory_vectors_bit;
    CREATE TRIGGER memory_chunks_vec_ad AFTER DELETE ON memory_chunks BEGIN
      DELETE FROM memory_vectors WHERE chunk_id = old.id;
      DELETE FROM memory_vectors_bit WHERE chunk_id = old.id;
    END;
    ${VECTOR_LOG_TRIGGERS_SQL}
    DELETE FROM memory_vector_log;
    PRAGMA user_version = 4;`);
  ix.db.close();

  const db = openIndex(ix.file, { readonly: false });
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.same(db.prepare('SELECT chunk_id, hex(embedding) AS e FROM memory_vectors_bit ORDER BY chunk_id').all(), bits, 'the same bits');
  const codes = db.prepare('SELECT chunk_id, codes FROM memory_vectors_bit ORDER BY chunk_id').raw().all() as Array<[number, Buffer]>;
  t.same(
    codes.map(([id, c]) => [id, c.toString('hex')]),
    vectors.map((v) => {
      const b = Buffer.from(v.e, 'hex');
      return [v.chunk_id, nibbleCodes(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))).toString('hex')];
    }),
    'each vector has the codes the writer would have stored',
  );
  t.same(db.prepare('SELECT chunk_id FROM memory_vector_log').pluck().all(), [null], 'the log says every vector changed');
  t.ok(
    Object.values(new IndexReader(db).consistency()).every((n) => n === 0),
    'consistent',
  );
  t.same(
    search(db, { query: '', k: 5, mode: 'vector', group: 'chunk' }, q).map((h) => [h.chunkId, h.score]),
    before,
    'vector search answers as before',
  );
  db.prepare(`DELETE FROM memory_chunks WHERE id = ?`).run(vectors[0]!.chunk_id);
  t.equal(
    db.prepare('SELECT count(*) FROM memory_vectors_bit').pluck().get(),
    vectors.length - 1,
    "a chunk's delete takes its bits and codes",
  );
  t.same(db.prepare('SELECT chunk_id FROM memory_vector_log ORDER BY seq').pluck().all(), [null, vectors[0]!.chunk_id], 'and is logged');
  t.throws(
    () => db.prepare(`INSERT INTO memory_vectors_bit (chunk_id, embedding, codes) VALUES (1e6, zeroblob(${DIM / 8}), zeroblob(3))`).run(),
    /CHECK constraint/,
    'codes of another length are refused',
  );
});
