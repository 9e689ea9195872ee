// The gateway keeps the vectors' sign bits in memory (coarse-index.ts), following the store writer through its vector
// log: after any writes on another connection, a reader's bits are exactly the stored ones and its vector search
// answers exactly what brute-force KNN over the stored floats answers, filters and users included.
import t from 'tap';
import fc from 'fast-check';
import type { Database } from 'better-sqlite3';
import { coarseIndex } from '../../actors/gateway/coarse-index.js';
import { search } from '../../actors/gateway/search.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { pruneVectorLog, vectorLogState } from '../../actors/store-writer/vector-log.js';
import type { SearchFilters } from '../../messages/store.js';
import { chunk, doc, randomUnit, rng, tempIndex, testModel } from '../helpers/index-fixture.js';

// not a multiple of 64: the packed bits end in padding
const DIM = 72;
const PATHS = ['a.md', 'b.md', 'dir/c.md', 'dir/d.md', 'dir/sub/e.md'];
const USERS = ['default', 'other'] as const;
const K = 5;

type Op =
  | {
      kind: 'upsert';
      user: (typeof USERS)[number];
      path: string;
      chunks: Array<{ word: number; seed: number | null }>;
      sensitive: boolean;
      tags: string[];
    }
  | { kind: 'delete'; user: (typeof USERS)[number]; path: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'model'; version: string }
  | { kind: 'prune' }
  | { kind: 'search' };

const path = fc.constantFrom(...PATHS);
const user = fc.constantFrom(...USERS);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('upsert' as const),
      user,
      path,
      // few words: an edit often keeps a chunk (same hash), which may gain the vector it lacked
      chunks: fc.array(fc.record({ word: fc.nat(5), seed: fc.option(fc.nat(1_000_000), { freq: 4 }) }), { maxLength: 5 }),
      sensitive: fc.boolean(),
      tags: fc.subarray(['t1', 't2', 't1/sub']),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), user, path }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename' as const), from: path, to: path }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('model' as const), version: fc.constantFrom('1', '2') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const) }) },
  // the reader searches now and then, so several writes (and prunes) land between two of its searches
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('search' as const) }) },
);

/** Hamming distance of two packed bit vectors. */
function hamming(a: Buffer, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    let x = a[i]! ^ b[i]!;
    while (x) {
      d += x & 1;
      x >>= 1;
    }
  }
  return d;
}

/** Sign bits packed as sqlite-vec's vec_quantize_binary packs them. */
function signBits(v: Float32Array): Uint8Array {
  const b = new Uint8Array(v.length / 8);
  v.forEach((x, i) => {
    if (x > 0) b[i >> 3]! |= 1 << (i & 7);
  });
  return b;
}

/**
 * The reader's bits are the stored ones, and the coarse order is by Hamming distance; the nearest n are the first n
 * of that order, and among listed ids they are the listed ones stably sorted by distance (ties in the list's order).
 */
function checkBits(reader: Database, q: Float32Array): string | null {
  return reader.transaction(() => {
    const stored = new Map(
      (reader.prepare('SELECT chunk_id, embedding FROM memory_vectors_bit').raw().all() as Array<[number, Buffer]>).map(([id, b]) => [
        id,
        b,
      ]),
    );
    const coarse = coarseIndex(reader);
    if (!coarse) return stored.size === 0 ? null : 'no coarse index but stored vectors';
    const order = coarse.nearest(q, Number.POSITIVE_INFINITY);
    if (order.length !== stored.size || new Set(order).size !== order.length || order.some((id) => !stored.has(id)))
      return `coarse ids ${JSON.stringify([...order].sort())} but stored ${JSON.stringify([...stored.keys()].sort())}`;
    const qb = signBits(q);
    const d = order.map((id) => hamming(stored.get(id)!, qb));
    if (!d.every((x, i) => i === 0 || d[i - 1]! <= x)) return `not nearest first: ${d.join(',')}`;
    const cuts = [1, 2, Math.ceil(order.length / 2), order.length - 1, order.length + 1].filter((n) => n >= 1);
    for (const n of cuts) {
      const got = coarse.nearest(q, n);
      if (JSON.stringify(got) !== JSON.stringify(order.slice(0, n))) return `nearest ${n}: ${got.join(',')} of ${order.join(',')}`;
    }
    // every other stored id, last first, and one without a vector (skipped)
    const listed = [...[...stored.keys()].filter((_, i) => i % 2 === 0).reverse(), 1e9];
    const byDistance = listed
      .filter((id) => stored.has(id))
      .map((id, at) => ({ id, at, d: hamming(stored.get(id)!, qb) }))
      .sort((a, b) => a.d - b.d || a.at - b.at)
      .map((x) => x.id);
    for (const n of cuts) {
      const got = coarse.nearest(q, n, listed);
      if (JSON.stringify(got) !== JSON.stringify(byDistance.slice(0, n)))
        return `nearest ${n} of ${listed.join(',')}: ${got.join(',')}, want ${byDistance.slice(0, n).join(',')}`;
    }
    return null;
  })();
}

/** Brute force over the stored floats, filters written out here rather than borrowed from the search code. */
function exact(reader: Database, q: Float32Array, userId: string, f: SearchFilters): Array<{ id: number; score: number }> {
  const rows = reader
    .prepare(
      `SELECT c.id, v.embedding, d.source_id AS path, d.sensitive, d.tags FROM memory_chunks c
       JOIN memory_documents d ON d.id = c.document_id JOIN memory_vectors v ON v.chunk_id = c.id
       WHERE d.deleted_at IS NULL AND d.user_id = ?`,
    )
    .all(userId) as Array<{ id: number; embedding: Buffer; path: string; sensitive: number; tags: string }>;
  return rows
    .filter((r) => f.includeSensitive || r.sensitive === 0)
    .filter((r) => !f.pathPrefix || r.path.startsWith(f.pathPrefix))
    .filter((r) => !f.tags || f.tags.every((w) => (JSON.parse(r.tags) as string[]).some((h) => h === w || h.startsWith(`${w}/`))))
    .map((r) => {
      const v = new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.length));
      let dot = 0;
      let qq = 0;
      let vv = 0;
      for (let i = 0; i < DIM; i++) {
        dot += q[i]! * v[i]!;
        qq += q[i]! * q[i]!;
        vv += v[i]! * v[i]!;
      }
      return { id: r.id, score: dot / Math.sqrt(qq * vv) };
    })
    .sort((a, b) => b.score - a.score);
}

const FILTERS: Array<[string, string, SearchFilters]> = [
  ['no filter', 'default', {}],
  ['another user', 'other', {}],
  ['sensitive included', 'default', { includeSensitive: true }],
  ['a folder', 'default', { pathPrefix: 'dir/' }],
  ['a tag', 'default', { tags: ['t1'] }],
];

/**
 * Vector search on the reader matches brute force for every filter (scores alike; ids alike but for float ties); with
 * few candidates it is approximate, but still answers k chunks that pass whenever k pass (it widens when too few did).
 */
function checkSearch(reader: Database, q: Float32Array): string | null {
  for (const [label, userId, filters] of FILTERS) {
    const passing = exact(reader, q, userId, filters);
    const want = passing.slice(0, K);
    // an oversample past the chunk count: every vector is re-scored, so the answer must be exact
    const got = search(reader, { query: '', k: K, mode: 'vector', group: 'chunk', userId, filters }, q, { oversample: 1000 });
    const same =
      got.length === want.length &&
      got.every(
        (h, i) => Math.abs(h.score - want[i]!.score) < 1e-5 && want.some((w) => w.id === h.chunkId && Math.abs(w.score - h.score) < 1e-5),
      );
    if (!same)
      return `${label}: got ${JSON.stringify(got.map((h) => [h.chunkId, h.score]))}, want ${JSON.stringify(want.map((w) => [w.id, w.score]))}`;
    const few = search(reader, { query: '', k: K, mode: 'vector', group: 'chunk', userId, filters }, q, { oversample: 1 });
    const ids = new Set(passing.map((p) => p.id));
    if (few.length !== want.length || few.some((h) => !ids.has(h.chunkId)))
      return `${label}, oversample 1: got ${JSON.stringify(few.map((h) => h.chunkId))} of passing ${JSON.stringify([...ids])}`;
  }
  return null;
}

t.test('after any writes by the store writer, a reader searches exactly the stored vectors', async (t) => {
  const queries = Array.from({ length: 3 }, (_, i) => randomUnit(DIM, rng(100 + i)));
  let fellBehind = 0;
  let wrote = 0;
  let runs = 0;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
      runs++;
      // each sequence on a fresh index, so a counterexample shrinks to the writes that matter
      const ix = tempIndex(t, { dim: DIM });
      const reader = openIndex(ix.file, { readonly: true });
      const writers = (version: string) =>
        Object.fromEntries(
          USERS.map((u) => [
            u,
            new IndexWriter(ix.db, { userId: u, model: { ...testModel(DIM), version }, chunkerVersion: 't', now: ix.clock.now }),
          ]),
        ) as Record<(typeof USERS)[number], IndexWriter>;
      let w = writers('1');
      let seen = 0; // the last log row the reader had applied
      const check = (after: Op[]): void => {
        for (const q of queries) {
          const wrong = checkBits(reader, q) ?? checkSearch(reader, q);
          if (wrong) throw new Error(`after ${JSON.stringify(after)}: ${wrong}`);
        }
        seen = vectorLogState(reader).head;
      };
      try {
        for (const [i, o] of ops.entries()) {
          ix.clock.advance(1);
          switch (o.kind) {
            case 'upsert': {
              const chunks = o.chunks.map((c, j) =>
                chunk(j, `word${c.word} text`, { vector: c.seed === null ? null : randomUnit(DIM, rng(c.seed)) }),
              );
              w[o.user].upsertDocument(doc(o.path, chunks, { sensitive: o.sensitive, tags: o.tags }));
              break;
            }
            case 'delete':
              w[o.user].deleteDocument('vault', o.path);
              break;
            case 'rename':
              w.default.renameDocument('vault', o.from, o.to, 'T', ix.clock.now(), 1);
              break;
            case 'model':
              w = writers(o.version);
              break;
            case 'prune':
              ix.db.transaction(() => pruneVectorLog(ix.db, 2))();
              if (vectorLogState(ix.db).pruned > seen) fellBehind++;
              break;
            case 'search':
              check(ops.slice(0, i + 1));
              break;
          }
        }
        check(ops);
        wrote += w.default.reader.counts().vectors;
      } finally {
        reader.close();
      }
    }),
    { seed: 20261125, numRuns: 40 },
  );
  t.equal(runs, 40);
  t.ok(fellBehind > 0, `the reader fell behind a pruned log ${fellBehind} times and reloaded`);
  t.ok(wrote > 0, `the sequences left ${wrote} vectors to search`);
});
