// The store writer applies each message in one transaction: a note's row and its file status (`status --files`)
// change together or not at all. A status write that fails (here a trigger that refuses it, standing in for a crash
// between the two) rolls the note's change back too, so the index never says a note is gone while its status
// survives, nor holds new content beside an old failure.
import t from 'tap';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { StoreApplier } from '../../actors/store-writer/apply.js';
import { vaultPath } from '../../messages/common.js';
import { parse } from '../chunker/helpers.js';
import { statusLines } from '../helpers/file-statuses.js';
import { tempIndex } from '../helpers/index-fixture.js';

const PATH = vaultPath('Inbox/tide.md');

function upsert(text: string) {
  const note = parse(text, PATH);
  return {
    type: 'store.upsert' as const,
    note: { ...note, chunks: note.chunks.map((c) => ({ ...c, vector: null })) },
    mtimeMs: 1_000,
    size: text.length,
    model: null,
  };
}

t.test('a failed status write leaves the note as it was, for an upsert, a delete and a rename', async (t) => {
  const ix = tempIndex(t, { dim: null });
  const reader = new IndexReader(ix.db, { userId: 'default' });
  const store = new StoreApplier(ix.writer, reader);
  store.apply(upsert('# Tide\n\nHigh water at six.\n'));
  store.apply({ type: 'store.file_failed', path: PATH, reason: 'unreadable', message: 'permission denied' });
  t.same(statusLines(reader), ['Inbox/tide.md failed unreadable']);

  ix.db.exec(`CREATE TRIGGER refuse_status_delete BEFORE DELETE ON file_status BEGIN SELECT RAISE(ABORT, 'status refused'); END`);
  ix.db.exec(`CREATE TRIGGER refuse_status_move BEFORE UPDATE ON file_status BEGIN SELECT RAISE(ABORT, 'status refused'); END`);
  const before = { doc: reader.document('vault', PATH), counts: reader.counts() };
  t.ok(before.doc, 'the note is indexed');

  t.throws(() => store.apply(upsert('# Tide\n\nLow water at noon.\n')), /status refused/);
  t.equal(reader.document('vault', PATH)?.contentHash, before.doc!.contentHash, 'upsert: the old content stays');
  t.throws(() => store.apply({ type: 'store.delete', path: PATH }), /status refused/);
  t.ok(reader.document('vault', PATH), 'delete: the note stays');
  t.throws(
    () => store.apply({ type: 'store.rename', from: PATH, to: vaultPath('Archive/tide.md'), mtimeMs: 2_000, size: 30 }),
    /status refused/,
  );
  t.ok(reader.document('vault', PATH), 'rename: the note stays at its path');
  t.equal(reader.document('vault', vaultPath('Archive/tide.md')), null, 'and is not at the new one');
  t.same(reader.counts(), before.counts, 'no count moved');
  t.same(statusLines(reader), ['Inbox/tide.md failed unreadable'], 'the status is as it was');

  ix.db.exec('DROP TRIGGER refuse_status_delete; DROP TRIGGER refuse_status_move');
  store.apply({ type: 'store.delete', path: PATH });
  t.equal(reader.document('vault', PATH), null, 'with the status writable, the delete goes through');
  t.same(statusLines(reader), [], 'and clears the status with it');
});
