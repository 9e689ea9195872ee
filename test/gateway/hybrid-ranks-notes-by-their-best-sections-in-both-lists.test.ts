// Note-level ranking (group: note, the default): a note scores its best vector section plus a little of its next
// ones, keeps the keyword list's clear winner first, and a candidate of one list is scored in the other too.
import t from 'tap';
import { BASELINE_RANKING, DEFAULT_RANKING, withRanking } from '../../actors/gateway/ranking.js';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, randomUnit, rng, tempIndex, vectorAtCosine } from '../helpers/index-fixture.js';

const r = rng(18);
const DIM = 16;

/** A unit vector whose cosine with the unit vector `q` is exactly `c`. */
const atCosine = (q: Float32Array, c: number): Float32Array => vectorAtCosine(q, c, r);

const paths = (hits: Array<{ path: string }>) => hits.map((h) => h.path);

t.test('a note with several sections near the question outranks one with a single slightly nearer section', async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(DIM, r);
  writer.upsertDocument(
    doc('guide.md', [
      chunk(0, 'setting up', { vector: atCosine(q, 0.8) }),
      chunk(1, 'first steps', { vector: atCosine(q, 0.79) }),
      chunk(2, 'going further', { vector: atCosine(q, 0.78) }),
    ]),
  );
  writer.upsertDocument(doc('aside.md', [chunk(0, 'a remark', { vector: atCosine(q, 0.85) })]));
  for (let i = 0; i < 10; i++) writer.upsertDocument(doc(`other-${i}.md`, [chunk(0, `other ${i}`, { vector: atCosine(q, 0.1) })]));

  const hits = search(db, { query: 'x', k: 3, mode: 'vector', group: 'note' }, q);
  t.same(paths(hits).slice(0, 2), ['guide.md', 'aside.md'], 'best section 0.80 plus a tenth of 0.79 and 0.78 beats 0.85 alone');
  t.ok(Math.abs(hits[0]!.score - (0.8 + 0.1 * (0.79 + 0.78))) < 1e-5, `the note's score (${hits[0]!.score})`);
  t.same(hits[0]!.also?.length, 2, 'its other sections still come along');
  const before = search(db, { query: 'x', k: 3, mode: 'vector', group: 'note' }, q, { ranking: BASELINE_RANKING });
  t.same(paths(before).slice(0, 2), ['aside.md', 'guide.md'], 'ranked by the best section alone, as before');
  t.same(
    paths(search(db, { query: 'x', k: 3, mode: 'vector' }, q)).slice(0, 2),
    ['aside.md', 'guide.md'],
    'one result per section (group: chunk) still ranks sections by their own cosine',
  );
});

t.test("the keyword list's clear winner stays first when the vector list prefers another note", async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(DIM, r);
  writer.upsertDocument(doc('exact.md', [chunk(0, 'the axolotl regrows its gills and limbs', { vector: atCosine(q, 0.05) })]));
  writer.upsertDocument(
    doc('vague.md', [
      chunk(0, 'field notes from the lake: weather, birds, an axolotl, reeds, insects and the boat', { vector: atCosine(q, 0.9) }),
    ]),
  );
  for (let i = 0; i < 6; i++) {
    writer.upsertDocument(
      doc(`limbs-${i}.md`, [chunk(0, `notes on limbs ${i} and many other unrelated things here`, { vector: atCosine(q, 0.0) })]),
    );
  }
  for (let i = 0; i < 20; i++) writer.upsertDocument(doc(`near-${i}.md`, [chunk(0, `near ${i}`, { vector: atCosine(q, 0.5 + i / 100) })]));

  const query = 'axolotl gills limbs';
  t.equal(search(db, { query, k: 5, mode: 'bm25', group: 'note' }, q)[0]?.path, 'exact.md', 'keywords alone put it first');
  const hits = search(db, { query, k: 5, mode: 'hybrid', group: 'note' }, q);
  t.equal(hits[0]?.path, 'exact.md', 'fused by score, the strong keyword match stays first');
  t.ok(hits[0]!.score > 0 && hits[0]!.score <= 1, 'hybrid scores are 0..1');
  const rrf = search(db, { query, k: 5, mode: 'hybrid', group: 'note' }, q, { ranking: BASELINE_RANKING });
  t.equal(rrf[0]?.path, 'vague.md', 'reciprocal-rank fusion (before) let the vector favourite with one keyword win');
});

t.test('a note that only one list ranks near the top is scored in the other list too (complete)', async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(DIM, r);
  // same words, so the same bm25: only the vector evidence can order them
  writer.upsertDocument(doc('far.md', [chunk(0, 'axolotl care', { vector: atCosine(q, -0.3) })]));
  writer.upsertDocument(doc('close.md', [chunk(0, 'axolotl care', { vector: atCosine(q, 0.5) })]));
  // 25 notes nearer the query than close.md, without the keyword: close.md is past the vector list's top 20
  for (let i = 0; i < 25; i++) writer.upsertDocument(doc(`near-${i}.md`, [chunk(0, `near ${i}`, { vector: atCosine(q, 0.6 + i / 100) })]));

  const order = (ranking = DEFAULT_RANKING) =>
    paths(search(db, { query: 'axolotl', k: 5, mode: 'hybrid', group: 'note' }, q, { ranking })).filter((p) => !p.startsWith('near-'));
  t.same(order(), ['close.md', 'far.md'], "close.md's cosine, below the vector list's cut-off, still counts");
  t.same(
    order(withRanking(DEFAULT_RANKING, { complete: false, feedback: null })),
    ['far.md', 'close.md'],
    'without it (and without feedback, whose list would find close.md too) the two tie on bm25 (lower id first)',
  );
});
