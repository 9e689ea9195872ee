// Pseudo-relevance feedback, exactly: the query vector is moved toward the stored vectors of the first pass's best
// notes (q' = normalize(q + beta × their mean)), and the list it reads finds a note beside them that the query alone
// ranks below the vector list's cut-off.
import t from 'tap';
import { feedbackVector, seedChunks } from '../../actors/gateway/feedback.js';
import { DEFAULT_RANKING, withRanking } from '../../actors/gateway/ranking.js';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, dot, randomUnit, rng, tempIndex, unit, vectorAtCosine } from '../helpers/index-fixture.js';

const r = rng(1818);
const DIM = 16;

/** A unit vector whose cosine with the unit vector `q` is exactly `c`. */
const atCosine = (q: Float32Array, c: number): Float32Array => vectorAtCosine(q, c, r);

t.test('the moved vector is normalize(q + beta × mean of the seeds’ vectors), and q itself without seeds', async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(DIM, r);
  const a = randomUnit(DIM, r);
  const b = randomUnit(DIM, r);
  writer.upsertDocument(doc('a.md', [chunk(0, 'first', { vector: a })]));
  writer.upsertDocument(doc('b.md', [chunk(0, 'second', { vector: b }), chunk(1, 'more of b', { vector: randomUnit(DIM, r) })]));
  const ids = db.prepare(`SELECT id FROM memory_chunks ORDER BY id`).pluck().all() as number[];
  // b.md's second chunk ranks below its first: a note gives one seed, its best chunk
  const seeds = seedChunks(
    db,
    [
      { id: ids[1]!, score: 0.9 },
      { id: ids[2]!, score: 0.8 },
      { id: ids[0]!, score: 0.7 },
    ],
    2,
  );
  t.same(
    seeds.map((s) => s.id),
    [ids[1], ids[0]],
    'the best chunk of each of the first two notes',
  );
  const moved = feedbackVector(db, q, seeds, 0.7);
  const want = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) want[i] = q[i]! + 0.7 * ((a[i]! + b[i]!) / 2);
  unit(want);
  t.ok(Math.abs(dot(moved, want) - 1) < 1e-5, `q' is the normalised sum (cosine ${dot(moved, want)})`);
  t.equal(feedbackVector(db, q, [], 0.7), q, 'no seed: the query unchanged');
  t.equal(feedbackVector(db, q, seeds, 0), q, 'beta 0: the query unchanged');
});

/** A unit vector orthogonal to each of the unit, mutually orthogonal `basis`. */
function orthogonal(basis: Float32Array[]): Float32Array {
  const u = randomUnit(DIM, r);
  for (const b of basis) {
    const d = dot(u, b);
    for (let i = 0; i < DIM; i++) u[i] = u[i]! - d * b[i]!;
  }
  return unit(u);
}

t.test('hybrid search finds a note beside the first pass’s best one only with feedback', async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(DIM, r);
  const u = orthogonal([q]);
  const w = orthogonal([q, u]);
  const mix = (cq: number, cu: number, cw: number) => unit(Float32Array.from(q, (x, i) => cq * x + cu * u[i]! + cw * w[i]!));
  // the keyword match, weak by vector (cosine 0.38); its twin shares no word with the question, sits next to it
  // (cosine 0.98) and a little farther from the question (0.37)
  const best = mix(0.38, Math.sqrt(1 - 0.38 ** 2), 0);
  const twin = mix(0.37, Math.sqrt(1 - 0.37 ** 2) * Math.cos(0.2), Math.sqrt(1 - 0.37 ** 2) * Math.sin(0.2));
  writer.upsertDocument(doc('best.md', [chunk(0, 'axolotl care', { vector: best })]));
  writer.upsertDocument(doc('twin.md', [chunk(0, 'tank water and temperature', { vector: twin })]));
  // one note near the question (0.7) and 19 a little nearer it than the twin (0.40–0.41), in other directions: with
  // best.md, 21 notes ahead of the twin, past the vector list's first 20
  writer.upsertDocument(doc('top.md', [chunk(0, 'top', { vector: atCosine(q, 0.7) })]));
  for (let i = 0; i < 19; i++) writer.upsertDocument(doc(`near-${i}.md`, [chunk(0, `near ${i}`, { vector: atCosine(q, 0.4 + i / 2000) })]));
  t.ok(dot(best, twin) > 0.97 && dot(twin, q) < 0.38, 'the twin is next to the best note and farther from the question than the rest');

  const paths = (ranking = DEFAULT_RANKING) =>
    search(db, { query: 'axolotl', k: 5, mode: 'hybrid', group: 'note' }, q, { ranking }).map((h) => h.path);
  const without = paths(withRanking(DEFAULT_RANKING, { feedback: null }));
  t.equal(without[0], 'best.md');
  t.notOk(without.includes('twin.md'), `without feedback the twin is not found: ${without.join(' ')}`);
  const withFeedback = paths();
  t.equal(withFeedback[0], 'best.md', 'the keyword match stays first');
  t.ok(withFeedback.includes('twin.md'), `with feedback it is in the top 5: ${withFeedback.join(' ')}`);
});
