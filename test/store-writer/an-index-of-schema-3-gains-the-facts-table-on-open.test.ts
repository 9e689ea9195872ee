// Schema 4 adds knowledge_facts to an existing index in place: chunks stay, the table and its triggers appear.
import t from 'tap';
import { openIndex, SCHEMA_VERSION } from '../../actors/store-writer/schema.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

t.test('a schema-3 index upgrades in place and records facts afterwards', async (t) => {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(doc('People/Ann.md', [chunk(0, 'Ann works at Acme')]));
  ix.db.exec(`
    DROP TRIGGER knowledge_facts_subject_au; DROP TRIGGER knowledge_facts_path_au; DROP TRIGGER knowledge_facts_soft_delete;
    DROP TABLE knowledge_facts; PRAGMA user_version = 3;`);
  ix.db.close();
  const db = openIndex(ix.file, { readonly: false });
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'on to the current schema');
  t.equal(db.prepare(`SELECT count(*) FROM memory_chunks`).pluck().get(), 1, 'chunks kept');
  t.equal(db.prepare(`SELECT count(*) FROM knowledge_facts`).pluck().get(), 0);
  db.prepare(`UPDATE memory_documents SET title = 'Ann B'`).run();
  t.equal(
    db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'knowledge_facts_%'`).pluck().get(),
    3,
    'the triggers are back',
  );
});
