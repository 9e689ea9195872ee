// The coarse pass (Hamming over the sign bits in memory, then exact cosine on k × oversample candidates) finds what
// exact KNN finds.
import t from 'tap';
import { DEFAULT_OVERSAMPLE, search } from '../../actors/gateway/search.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import type { UpsertChunk } from '../../messages/store.js';
import { dot, gaussian, randomUnit, rng, tempIndex, testModel, unit } from '../helpers/index-fixture.js';

const DIM = 256;
const N = 10_000;
const QUERIES = 50;
const K = 10;

/** Topics → subtopics → chunks, ~50 chunks a subtopic: neighbours are near each other, as in real notes. */
function clustered(r: () => number) {
  const topics = Array.from({ length: 10 }, () => randomUnit(DIM, r));
  const subs = Array.from({ length: N / 50 }, () => randomUnit(DIM, r));
  return (noise: number): Float32Array => {
    const s = Math.floor(r() * subs.length);
    const topic = topics[s % topics.length]!;
    const sub = subs[s]!;
    const v = new Float32Array(DIM);
    const per = noise / Math.sqrt(DIM);
    for (let i = 0; i < DIM; i++) v[i] = topic[i]! + 0.8 * sub[i]! + per * gaussian(r);
    return unit(v);
  };
}

t.test(`recall@${K} of the default coarse+rescore against exact KNN is at least 0.99`, async (t) => {
  const { db } = tempIndex(t, { dim: null });
  const writer = new IndexWriter(db, { model: testModel(DIM), chunkerVersion: 't', now: () => 0 });
  const r = rng(11);
  const next = clustered(r);
  const vectors: Float32Array[] = [];
  db.transaction(() => {
    for (let d = 0; d < N / 10; d++) {
      const chunks: UpsertChunk[] = [];
      for (let i = 0; i < 10; i++) {
        const v = next(0.8);
        vectors.push(v);
        chunks.push({
          seq: i,
          content: `c${d}.${i}`,
          headingPath: [],
          startLine: 1,
          endLine: 1,
          tokenCount: 1,
          hash: `${d}.${i}`,
          vector: v,
        });
      }
      writer.upsertDocument({
        sourceType: 'vault',
        sourceId: `d${d}.md`,
        title: 't',
        contentHash: `${d}`,
        mtimeMs: 0,
        size: 0,
        metadata: {},
        tags: [],
        sensitive: false,
        chunks,
      });
    }
  })();
  // chunk ids follow insertion order, so vectors[i] is chunk i + 1
  const ids = db.prepare('SELECT id FROM memory_chunks ORDER BY id').pluck().all() as number[];
  t.equal(ids.length, N);

  let found = 0;
  let foundTwo = 0;
  for (let q = 0; q < QUERIES; q++) {
    const qv = next(1.1);
    const exact = new Set(
      vectors
        .map((v, i) => [dot(qv, v), ids[i]!] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, K)
        .map(([, id]) => id),
    );
    for (const h of search(db, { query: '', k: K, mode: 'vector' }, qv)) if (exact.has(h.chunkId)) found++;
    for (const h of search(db, { query: '', k: K, mode: 'vector' }, qv, { oversample: 1 })) if (exact.has(h.chunkId)) foundTwo++;
  }
  const recall = found / (QUERIES * K);
  t.comment(`recall@${K}: ${recall.toFixed(3)} at oversample ${DEFAULT_OVERSAMPLE}, ${(foundTwo / (QUERIES * K)).toFixed(3)} at 1`);
  t.ok(recall >= 0.99, `recall ${recall.toFixed(3)} ≥ 0.99`);
  t.ok(foundTwo < found, 'the oversample is what buys the recall (oversample 1 recalls less)');
});
