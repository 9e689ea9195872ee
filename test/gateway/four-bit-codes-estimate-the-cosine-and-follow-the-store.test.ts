// Each stored vector's 4-bit codes (nibble-codes.ts) re-rank the coarse pass's candidates: the codes decode to the
// unit vector within half a step a dimension, the gateway's SIMD kernel scores them exactly as the stored codes say
// (checked against a plain loop over the stored blobs, through writes that grow, shrink and reorder its slots), and
// its score is the cosine to within ~0.005 on average at 512 dimensions (random vectors; real use-lite ones 0.003).
import t from 'tap';
import fc from 'fast-check';
import type { Database } from 'better-sqlite3';
import { coarseIndex, kthLargest } from '../../actors/gateway/coarse-index.js';
import { nibbleCodeBytes, nibbleCodes } from '../../actors/store-writer/nibble-codes.js';
import { chunk, doc, dot, randomUnit, rng, tempIndex, unit } from '../helpers/index-fixture.js';

/** The codes' dimension d: its nibble, less 8 (byte i of a 32-dimension block: dimension i low, 16 + i high). */
function codeAt(codes: Buffer, d: number): number {
  const inBlock = d % 32;
  const byte = codes[(d - inBlock) / 2 + (inBlock % 16)]!;
  return (inBlock < 16 ? byte & 0x0f : byte >> 4) - 8;
}

/** What the kernel computes, written as a plain loop over a stored codes blob: the query as i16, in f32 where it is. */
function expectedScore(blob: Buffer, q: Float32Array): number {
  const bytes = nibbleCodeBytes(q.length);
  const scale = blob.readFloatLE(bytes);
  let max = 0;
  let norm = 0;
  for (const x of q) {
    max = Math.max(max, Math.abs(x));
    norm += x * x;
  }
  let sum = 0;
  for (let d = 0; d < q.length; d++) sum += Math.round((q[d]! / max) * 16_383) * codeAt(blob, d);
  return Math.fround(Math.fround(sum) * scale) * (max / 16_383 / Math.sqrt(norm));
}

t.test('codes decode to the unit vector within half a step; padding dimensions are zero', async (t) => {
  const r = rng(5);
  for (const dim of [8, 40, 512]) {
    const problems: string[] = [];
    for (let i = 0; i < 20; i++) {
      const v = randomUnit(dim, r).map((x) => x * (1 + 9 * r())); // any length: the codes are of the unit vector
      const blob = nibbleCodes(v);
      if (blob.length !== nibbleCodeBytes(dim) + 4) problems.push(`${blob.length} bytes`);
      const scale = blob.readFloatLE(nibbleCodeBytes(dim));
      const u = unit(Float32Array.from(v));
      let worst = 0;
      for (let d = 0; d < dim; d++) worst = Math.max(worst, Math.abs(scale * codeAt(blob, d) - u[d]!) / scale);
      if (worst > 0.5 + 1e-4) problems.push(`a dimension ${worst.toFixed(3)} steps off`);
      for (let d = dim; d < Math.ceil(dim / 32) * 32; d++) if (codeAt(blob, d) !== 0) problems.push(`padding dimension ${d} is not zero`);
      if (Math.max(...Array.from({ length: dim }, (_, d) => Math.abs(codeAt(blob, d)))) !== 7) problems.push('no dimension takes code ±7');
    }
    t.same(problems, [], `${dim} dimensions, 20 vectors`);
  }
  const zero = nibbleCodes(new Float32Array(40));
  t.equal(zero.readFloatLE(nibbleCodeBytes(40)), 0, 'a zero vector has scale 0');
});

/** The coarse index's 4-bit scores of every stored vector equal the plain loop's over the stored blobs, and its documents the store's. */
function checkScores(db: Database, q: Float32Array): string | null {
  return db.transaction(() => {
    const stored = db.prepare('SELECT chunk_id, codes FROM memory_vectors_bit').raw().all() as Array<[number, Buffer]>;
    const coarse = coarseIndex(db);
    if (!coarse) return stored.length === 0 ? null : 'no coarse index';
    const ids = stored.map(([id]) => id);
    const got = new Map(coarse.rerank(q, ids, ids.length).map((x) => [x.id, x.score]));
    for (const [id, blob] of stored) {
      const want = expectedScore(blob, q);
      if (Math.abs(got.get(id)! - want) > 1e-12 * Math.max(1, Math.abs(want)))
        return `chunk ${id}: ${got.get(id)} from the kernel, ${want} from its codes`;
    }
    // each chunk's document too (the filters' lookups: filter-sql.ts), moved with its slot
    const docs = db
      .prepare('SELECT b.chunk_id, c.document_id FROM memory_vectors_bit b JOIN memory_chunks c ON c.id = b.chunk_id')
      .raw()
      .all() as Array<[number, number]>;
    for (const [id, doc] of docs) if (coarse.docOf(id) !== doc) return `chunk ${id}: document ${coarse.docOf(id)}, the store's ${doc}`;
    const best = coarse.rerank(q, coarse.nearest(q, ids.length), 5);
    const all = [...got.values()].sort((a, b) => b - a);
    if (best.map((x) => x.score).join() !== all.slice(0, 5).join())
      return `rerank's best 5 ${best.map((x) => x.score)}, all ${all.slice(0, 5)}`;
    return null;
  })();
}

t.test('the kernel scores what the stored codes say, through writes that grow and shrink the index', async (t) => {
  // 40 dimensions: not a whole 32-dimension block, nor whole 64-bit words of bits
  const DIM = 40;
  const ix = tempIndex(t, { dim: DIM });
  const r = rng(17);
  let next = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(fc.record({ add: fc.integer({ min: 1, max: 700 }) }), fc.record({ drop: fc.nat(40) })), {
        minLength: 3,
        maxLength: 8,
      }),
      async (ops) => {
        for (const o of ops) {
          if ('add' in o) {
            // notes of 10 chunks: past 1,024 and 2,048 vectors the index grows, and its codes move with it
            ix.db.transaction(() => {
              for (let n = 0; n < Math.ceil(o.add / 10); n++) {
                const i = next++;
                ix.writer.upsertDocument(
                  doc(
                    `n${i}.md`,
                    Array.from({ length: 10 }, (_, s) => chunk(s, `n${i} s${s}`, { vector: randomUnit(DIM, r) })),
                  ),
                );
              }
            })();
          } else {
            const paths = ix.db
              .prepare(`SELECT source_id FROM memory_documents WHERE deleted_at IS NULL ORDER BY id`)
              .pluck()
              .all() as string[];
            for (const p of paths.filter((_, i) => i % 41 === o.drop % 41)) ix.writer.deleteDocument('vault', p);
          }
          const problem = checkScores(ix.db, randomUnit(DIM, r));
          if (problem) throw new Error(problem);
        }
      },
    ),
    { numRuns: 6, seed: 42 },
  );
  t.ok(next * 10 > 2048, `${next * 10} vectors written`);
});

t.test('at 512 dimensions the 4-bit score is the cosine within 0.01 on average, and finds the nearest', async (t) => {
  const DIM = 512;
  const ix = tempIndex(t, { dim: DIM });
  const r = rng(23);
  const vectors = new Map<number, Float32Array>();
  ix.db.transaction(() => {
    for (let n = 0; n < 200; n++) {
      ix.writer.upsertDocument(
        doc(
          `n${n}.md`,
          Array.from({ length: 10 }, (_, s) => chunk(s, `n${n} s${s}`, { vector: randomUnit(DIM, r) })),
        ),
      );
    }
  })();
  for (const [id, b] of ix.db.prepare('SELECT chunk_id, embedding FROM memory_vectors').raw().all() as Array<[number, Buffer]>) {
    vectors.set(id, new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)));
  }
  let worst = 0;
  let total = 0;
  let n = 0;
  let sameTop = 0;
  for (let i = 0; i < 20; i++) {
    // a query near a stored vector, so its neighbours score well above the rest
    const base = [...vectors.values()][Math.floor(r() * vectors.size)]!;
    const q = unit(base.map((x) => x + 0.03 * (r() - 0.5)));
    const est = ix.db.transaction(() => coarseIndex(ix.db)!.rerank(q, [...vectors.keys()], vectors.size))();
    for (const { id, score } of est) {
      const e = Math.abs(score - dot(q, unit(Float32Array.from(vectors.get(id)!))));
      worst = Math.max(worst, e);
      total += e;
      n++;
    }
    const exactBest = [...vectors].sort((a, b) => dot(q, b[1]) - dot(q, a[1]))[0]![0];
    if (est[0]!.id === exactBest) sameTop++;
  }
  t.ok(total / n < 0.01, `mean error ${(total / n).toFixed(4)}`);
  t.ok(worst < 0.05, `largest error ${worst.toFixed(4)} of ${n}`);
  t.equal(sameTop, 20, 'the nearest by the codes is the nearest by cosine');
});

t.test('kthLargest agrees with a sort', async () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 60 }), fc.nat(), (xs, k0) => {
      const k = (k0 % xs.length) + 1;
      const want = [...xs].sort((a, b) => b - a)[k - 1];
      return kthLargest(Float32Array.from(xs), k) === want;
    }),
  );
});
