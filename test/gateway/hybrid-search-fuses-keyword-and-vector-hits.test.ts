// Hybrid search fuses the keyword and vector lists by normalised score, and falls back to keywords without a vector.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, near, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(9);

function seeded(t: Parameters<typeof tempIndex>[0]) {
  const ix = tempIndex(t);
  const q = randomUnit(16, r);
  const far = () => {
    // orthogonal-ish to q: far from it in cosine
    const v = randomUnit(16, r);
    let d = 0;
    for (let i = 0; i < 16; i++) d += v[i]! * q[i]!;
    for (let i = 0; i < 16; i++) v[i] = v[i]! - d * q[i]!;
    return near(v, 0.01, r);
  };
  ix.writer.upsertDocument(doc('keyword-only.md', [chunk(0, 'the axolotl regenerates limbs', { vector: far() })]));
  ix.writer.upsertDocument(doc('vector-only.md', [chunk(0, 'salamander biology overview', { vector: near(q, 0.05, r) })]));
  ix.writer.upsertDocument(doc('both.md', [chunk(0, 'axolotl care guide', { vector: near(q, 0.1, r) })]));
  for (let i = 0; i < 30; i++) ix.writer.upsertDocument(doc(`other-${i}.md`, [chunk(0, `unrelated note ${i}`, { vector: far() })]));
  return { ...ix, q };
}

t.test('a note found only by keyword and one found only by vector both appear, the one found by both first', async (t) => {
  const { db, q } = seeded(t);
  const hits = search(db, { query: 'axolotl', k: 5, mode: 'hybrid' }, q);
  const order = hits.map((h) => h.path);
  t.equal(order[0], 'both.md');
  t.ok(order.includes('keyword-only.md'), 'keyword-only hit present');
  t.ok(order.includes('vector-only.md'), 'vector-only hit present');
  // both.md is first by keyword but second by vector: below 1, which only the top of both lists scores
  t.ok(hits[0]!.score > 0 && hits[0]!.score < 1, `fused score is 0..1 (${hits[0]!.score})`);
  const top = search(db, { query: 'salamander', k: 5, mode: 'hybrid' }, q)[0]!;
  t.same([top.path, top.score], ['vector-only.md', 1], 'first in both lists scores 1');
  t.ok(
    hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score),
    'sorted by fused score',
  );
  t.match(hits.find((h) => h.path === 'vector-only.md')!.snippet, /^salamander biology/, 'vector-only hits get the chunk start as snippet');

  t.same(
    search(db, { query: 'axolotl', k: 5, mode: 'bm25' }, q)
      .map((h) => h.path)
      .sort(),
    ['both.md', 'keyword-only.md'],
  );
  t.equal(search(db, { query: 'axolotl', k: 5, mode: 'vector' }, q)[0]!.path, 'vector-only.md');
});

t.test('without a query vector hybrid returns the keyword hits and vector returns none', async (t) => {
  const { db } = seeded(t);
  const hybrid = search(db, { query: 'axolotl', k: 5, mode: 'hybrid' }, null);
  const bm25 = search(db, { query: 'axolotl', k: 5, mode: 'bm25' }, null);
  t.same(hybrid, bm25);
  t.same(search(db, { query: 'axolotl', k: 5, mode: 'vector' }, null), []);
});

t.test('an index with no vectors answers hybrid with keywords; a query vector of another size is a bug', async (t) => {
  const { db, writer } = tempIndex(t, { dim: null });
  writer.upsertDocument(doc('a.md', [chunk(0, 'axolotl')]));
  t.equal(search(db, { query: 'axolotl', k: 5, mode: 'hybrid' }, randomUnit(16, r)).length, 1);
  const withVectors = tempIndex(t);
  t.throws(() => search(withVectors.db, { query: 'x', k: 5, mode: 'hybrid' }, randomUnit(32, r)), /32 floats/);
});

t.test('k caps the number of hits, one hit per chunk', async (t) => {
  const { db, q } = seeded(t);
  const hits = search(db, { query: 'unrelated axolotl', k: 7, mode: 'hybrid' }, q);
  t.equal(hits.length, 7);
  t.equal(new Set(hits.map((h) => h.chunkId)).size, 7);
  t.same(search(db, { query: 'axolotl', k: 0, mode: 'hybrid' }, q), []);
});
