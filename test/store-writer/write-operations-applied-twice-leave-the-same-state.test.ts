// Every IndexWriter operation is idempotent: a message redelivered after a crash changes nothing.
import t from 'tap';
import { chunk, doc, randomUnit, rng, snapshot, tempIndex } from '../helpers/index-fixture.js';

const r = rng(1);
const v = () => randomUnit(16, r);

t.test('upsert applied twice leaves the same rows, ids included', async (t) => {
  const { db, writer } = tempIndex(t);
  const d = doc('notes/a.md', [chunk(0, 'alpha beta', { vector: v() }), chunk(1, 'gamma delta', { vector: v() })]);
  const first = writer.upsertDocument(d);
  const once = snapshot(db);
  const second = writer.upsertDocument(d);
  t.same(second, first);
  t.same(snapshot(db), once);
});

t.test('touch, delete and rename applied twice leave the same state as once', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.upsertDocument(doc('a.md', [chunk(0, 'one', { vector: v() })]));
  writer.upsertDocument(doc('b.md', [chunk(0, 'two', { vector: v() })]));
  writer.upsertDocument(doc('c.md', [chunk(0, 'three', { vector: v() })]));

  t.equal(writer.touchDocument('vault', 'a.md', 2000, 42), true);
  let s = snapshot(db);
  t.equal(writer.touchDocument('vault', 'a.md', 2000, 42), true);
  t.same(snapshot(db), s);

  t.equal(writer.deleteDocument('vault', 'b.md'), true);
  s = snapshot(db);
  t.equal(writer.deleteDocument('vault', 'b.md'), false, 'already deleted');
  t.same(snapshot(db), s);

  t.equal(writer.renameDocument('vault', 'c.md', 'd.md', 'd', 3000, 5), true);
  s = snapshot(db);
  t.equal(writer.renameDocument('vault', 'c.md', 'd.md', 'd', 3000, 5), false, 'nothing left at c.md');
  t.same(snapshot(db), s);
});

t.test('file status set twice or cleared twice leaves the same state', async (t) => {
  const { db, writer } = tempIndex(t);
  writer.setFileStatus('x.md', 'skipped', 'binary', 'x.md is binary: not indexed');
  const s = snapshot(db);
  writer.setFileStatus('x.md', 'skipped', 'binary', 'x.md is binary: not indexed');
  t.same(snapshot(db), s);
  t.equal(writer.clearFileStatus('x.md'), true);
  t.equal(writer.clearFileStatus('x.md'), false);
  t.same(writer.reader.fileStatuses(), []);
});

t.test('operations on documents that do not exist report false and change nothing', async (t) => {
  const { db, writer } = tempIndex(t);
  const s = snapshot(db);
  t.equal(writer.touchDocument('vault', 'nope.md', 1, 1), false);
  t.equal(writer.deleteDocument('vault', 'nope.md'), false);
  t.equal(writer.renameDocument('vault', 'nope.md', 'x.md', 'x', 1, 1), false);
  t.same(snapshot(db), s);
});
