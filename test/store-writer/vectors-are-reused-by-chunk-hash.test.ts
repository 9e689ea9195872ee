// The embedder asks for stored vectors by chunk hash, so unchanged chunks (even in other notes) are not re-embedded.
import t from 'tap';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(6);

t.test('vectorsByChunkHash returns the stored vectors bit for bit, for known hashes only', async (t) => {
  const { file, writer } = tempIndex(t);
  const a = chunk(0, 'shared paragraph', { vector: randomUnit(16, r) });
  const b = chunk(1, 'only in one', { vector: randomUnit(16, r) });
  const c = chunk(2, 'no vector yet');
  writer.upsertDocument(doc('x.md', [a, b, c]));
  writer.upsertDocument(doc('y.md', [chunk(0, 'shared paragraph', { vector: a.vector })]));

  const ro = openIndex(file, { readonly: true });
  t.teardown(() => ro.close());
  const got = new IndexReader(ro).vectorsByChunkHash([a.hash, b.hash, c.hash, 'unknown', a.hash]);
  t.same([...got.keys()].sort(), [a.hash, b.hash].sort());
  t.same(Array.from(got.get(a.hash)!), Array.from(a.vector!));
  t.same(Array.from(got.get(b.hash)!), Array.from(b.vector!));
  t.ok(got.get(a.hash) instanceof Float32Array);
});

t.test('no vectors are offered after the model changed, nor when none was ever set', async (t) => {
  const { writer } = tempIndex(t);
  const a = chunk(0, 'p', { vector: randomUnit(16, r) });
  writer.upsertDocument(doc('x.md', [a]));
  t.equal(writer.reader.vectorsByChunkHash([a.hash]).size, 1);
  const change = writer.setModel({ provider: 'test', name: 'other', version: '1', dim: 32 });
  t.same(change, { changed: true, droppedVectors: 1 });
  t.equal(writer.reader.vectorsByChunkHash([a.hash]).size, 0);
  t.equal(writer.reader.model()!.name, 'other');
  t.same(writer.reader.documentsMissingVectors('vault'), ['x.md']);
  t.same(writer.setModel({ provider: 'test', name: 'other', version: '1', dim: 32 }), { changed: false, droppedVectors: 0 });

  const none = tempIndex(t, { dim: null });
  none.writer.upsertDocument(doc('x.md', [chunk(0, 'p')]));
  t.equal(none.writer.reader.vectorsByChunkHash([a.hash]).size, 0);
  t.equal(none.writer.reader.model(), null);
});
