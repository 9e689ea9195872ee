// The embedder looks up the vectors of chunks it has seen before (by content hash) in the index, through a connection
// opened at its start. A reindex in the running daemon swaps a new file in, and that connection kept reading the old
// one: a note written after a reindex that switched models got the old model's vectors for its known chunks, filed
// as the new model's (vectors of two models mixed in one index), and the old file stayed on disk, deleted but held
// open, for as long as the daemon ran. The embedder now reopens the index at its first read after a swap.
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { int8DaemonOverFp32Index } from '../helpers/model-switch.js';

const KILN = '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n';

/** The stored vector bytes of each chunk whose text is `content`, by note path. */
function vectorsOf(file: string, content: string): Map<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT d.source_id AS path, hex(v.embedding) AS hex FROM memory_chunks c
         JOIN memory_documents d ON d.id = c.document_id JOIN memory_vectors v ON v.chunk_id = c.id
         WHERE c.content LIKE ? AND d.deleted_at IS NULL`,
      )
      .all(`%${content}%`) as Array<{ path: string; hex: string }>;
    return new Map(rows.map((r) => [r.path, r.hex]));
  } finally {
    db.close();
  }
}

t.test('after a reindex that switched models, a known chunk gets the new model’s vector', async (t) => {
  const { v, int8, d } = await int8DaemonOverFp32Index(t, {
    'Projects/kiln.md': KILN,
    'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle.\n',
  });
  const r = await d.api('POST', '/v1/reindex', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  await d.daemon.whenCaughtUp();

  // the same note in another folder: its chunk's hash (of its text and title) is known, so its vector is looked up
  const done = d.daemon.nextDone('Inbox/kiln.md', 'indexed');
  v.write('Inbox/kiln.md', KILN);
  await done;
  const file = path.join(int8.data_dir, 'index.sqlite');
  const vectors = vectorsOf(file, 'eleven hours of firing');
  t.ok(vectors.get('Projects/kiln.md'), 'the rebuilt index has the kiln chunk’s int8 vector');
  t.equal(vectors.get('Inbox/kiln.md'), vectors.get('Projects/kiln.md'), 'the copy got the same vector: the new model’s');
});
