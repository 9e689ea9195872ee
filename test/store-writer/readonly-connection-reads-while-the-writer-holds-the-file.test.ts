// Readers open the index read-only beside the writer (WAL): they see committed writes and never block or write.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { search } from '../../actors/gateway/search.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { IndexOpenError, SCHEMA_VERSION, openIndex } from '../../actors/store-writer/schema.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(10);

t.test('a read-only connection sees commits while the writer is mid-transaction', async (t) => {
  const { db, file, writer } = tempIndex(t);
  writer.upsertDocument(doc('a.md', [chunk(0, 'committed pelican', { vector: randomUnit(16, r) })]));
  const ro = openIndex(file, { readonly: true });
  t.teardown(() => ro.close());
  t.equal(ro.pragma('journal_mode', { simple: true }), 'wal');

  db.exec('BEGIN IMMEDIATE');
  db.prepare(`UPDATE memory_documents SET title = 'uncommitted' WHERE source_id = 'a.md'`).run();
  const hits = search(ro, { query: 'pelican', k: 5, mode: 'hybrid' }, randomUnit(16, r));
  t.same(
    hits.map((h) => [h.path, h.title]),
    [['a.md', 'a']],
    'the reader is not blocked and sees the last commit',
  );
  db.exec('ROLLBACK');

  writer.upsertDocument(doc('b.md', [chunk(0, 'second pelican')]));
  t.equal(new IndexReader(ro).counts().documents, 2, 'a later read sees the new commit');
  t.throws(() => ro.prepare(`DELETE FROM memory_documents`).run(), /readonly/);
});

t.test('opening refuses a missing index read-only and an index from a newer memvault', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'memvault-open-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'i.sqlite');
  t.throws(() => openIndex(file, { readonly: true }), /unable to open|does not exist|SQLITE_CANTOPEN/i);

  const w = openIndex(file, { readonly: false });
  t.equal(w.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.equal(new IndexReader(w).schemaVersion(), SCHEMA_VERSION);
  w.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  w.close();
  for (const readonly of [true, false]) {
    try {
      openIndex(file, { readonly });
      t.fail('should refuse');
    } catch (err) {
      t.ok(err instanceof IndexOpenError);
      t.equal((err as IndexOpenError).code, 'index_too_new');
    }
  }
});

t.test('reopening a migrated index keeps its data and meta', async (t) => {
  const { file, writer, db } = tempIndex(t);
  writer.upsertDocument(doc('a.md', [chunk(0, 'kept', { vector: randomUnit(16, r) })]));
  const again = openIndex(file, { readonly: false });
  t.teardown(() => again.close());
  const reader = new IndexReader(again);
  t.equal(reader.counts().vectors, 1);
  t.same(reader.model(), writer.model());
  t.equal(reader.chunkerVersion(), 'test-1');
  t.same(reader.documentStats('vault').get('a.md'), {
    mtimeMs: 1000,
    size: 4,
    contentHash: writer.reader.document('vault', 'a.md')!.contentHash,
    chunkerVersion: 'test-1',
  });
  t.ok(db.open);
});
