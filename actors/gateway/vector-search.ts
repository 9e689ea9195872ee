// The vector half of a search: a coarse pass over the sign bits kept in memory, the best of the nearest ordered by
// their 4-bit codes (coarse-index.ts), then exact cosine from the stored float vectors for the first of them,
// filters applied.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import { coarseIndex } from './coarse-index.js';
import { type ChunkFacts, chunkFacts, type FilterSql, passing } from './filter-sql.js';
import type { Ranked } from './group-by-note.js';

/**
 * Candidates per wanted hit kept by the sign bits' asymmetric score and ordered by their 4-bit codes; REFINE times as
 * many are taken by Hamming distance first. At 100k chunks the scan costs ~0.3–0.8 ms for any count, a candidate's
 * asymmetric score or codes a fraction of a µs, an exact re-score ~8 µs (the float vector read back from SQLite).
 */
export const DEFAULT_OVERSAMPLE = 20;
/** Hamming candidates per candidate kept. */
const REFINE = 10;
/**
 * A caller's filter that passes at most this share of the chunks (or MIN_LISTED) is searched by listing the chunks
 * that pass (one query) and scanning only their bits; a wider one as if there were no filter, widening when too few
 * of the nearest pass (at 1/16 passing, ~12 of the first 200 re-scored).
 */
const LISTED_SHARE = 1 / 16;
/** Candidates checked against the filters beyond those wanted, in the first batch. */
const FILTER_SLACK = 8;
const MIN_LISTED = 2_000;
/**
 * Candidates re-scored exactly per chunk that gets its exact cosine, and at least MIN_EXACT: the 4-bit order is close,
 * not exact (clustered 256-dimension vectors, k = 10: recall@10 0.984 re-scoring the 4-bit best 20, 1.000 with 40).
 */
const EXACT_MARGIN = 2;
const MIN_EXACT = 40;

/**
 * How deep a vector list reads (`read`: a hybrid search's complete scores read deeper than its lists rank) and how
 * many of its first chunks get their exact cosine (`exact`); the rest keep the 4-bit estimate (within ~0.01).
 */
export interface VectorDepth {
  read: number;
  exact: number;
}

/**
 * The `depth.read` chunks nearest `q` among those passing `filters`, nearest first: of the nearest `k × oversample ×
 * REFINE` by Hamming distance, the best `k × oversample` (at least `depth.read`) by the asymmetric score, ordered by
 * their 4-bit codes, the first of those passing re-scored exactly (rescore). Call inside the read transaction the
 * rest of the search uses.
 */
export function vectorList(
  db: Database,
  q: Float32Array,
  filters: FilterSql,
  k: number,
  depth: VectorDepth,
  oversample: number,
  facts: ChunkFacts = chunkFacts(),
): Ranked[] {
  const coarse = coarseIndex(db);
  if (!coarse || coarse.size === 0) return [];
  const want = Math.max(depth.read, Math.ceil(k * oversample));
  if (filters.selective) {
    // a narrow filter: list the chunks that pass (one query), and scan only their bits
    const cap = Math.max(MIN_LISTED, Math.ceil(coarse.size * LISTED_SHARE));
    const listed = filteredChunks(db, filters, cap + 1);
    if (listed.length <= cap)
      return rescore(
        db,
        q,
        filters,
        coarse.rerank(q, coarse.refine(q, coarse.nearest(q, want * REFINE, listed), want), want),
        depth,
        facts,
      );
  }
  // Most chunks pass (a wide filter, or only the user, deleted and sensitive ones are filtered): re-score the nearest
  // by cosine, keep those that pass, and widen while too few did.
  for (let n = want; ; n *= 4) {
    const near = coarse.nearest(q, n * REFINE);
    const kept = coarse.rerank(q, coarse.refine(q, near, n), n);
    const rows = rescore(db, q, filters, kept, depth, facts);
    // enough passed, or every vector there is was looked at
    if (rows.length >= depth.read || (near.length < n * REFINE && kept.length === near.length)) return rows;
  }
}

/** Up to `limit` ids of chunks passing the filters. */
function filteredChunks(db: Database, filters: FilterSql, limit: number): number[] {
  return prepared(
    db,
    `SELECT c.id FROM memory_documents d CROSS JOIN memory_chunks c ON c.document_id = d.id WHERE ${filters.where} LIMIT @limit`,
  )
    .pluck()
    .all({ ...filters.params, limit }) as number[];
}

/**
 * The first `depth.read` of `ranked` (best first by the 4-bit estimate) that pass the filters, checked a batch at a
 * time, nearest first. The first EXACT_MARGIN × `depth.exact` (at least MIN_EXACT) that pass are re-scored exactly;
 * the rest keep their estimate. On the retrieval bench's 19k real use-lite vectors and 200 real queries, a hybrid
 * search's 100-deep list against exact KNN: recall@20 0.983 and recall@100 0.835, where re-scoring all 200 candidates
 * gave 0.983 and 0.841. The floats are read alone (one page a candidate; the chunk and document rows would be two
 * more, mostly missing SQLite's cache at 100k chunks).
 */
function rescore(
  db: Database,
  q: Float32Array,
  filters: FilterSql,
  ranked: readonly Ranked[],
  depth: VectorDepth,
  facts: ChunkFacts,
): Ranked[] {
  const exactly = Math.max(EXACT_MARGIN * depth.exact, MIN_EXACT);
  const want = Math.max(depth.read, exactly);
  const kept: Ranked[] = [];
  // the first batch: as many as wanted and a few more, the filters rarely fail (another user's or a sensitive note)
  for (let at = 0, batch = want + FILTER_SLACK; at < ranked.length && kept.length < want; at += batch, batch *= 4) {
    const slice = ranked.slice(at, at + batch);
    const pass = new Set(
      passing(
        db,
        filters,
        slice.map((r) => r.id),
        facts,
      ),
    );
    for (const r of slice) if (pass.has(r.id) && kept.length < want) kept.push(r);
  }
  const exact = Math.min(kept.length, exactly);
  if (exact === 0) return kept.slice(0, depth.read);
  // rows as [id, dist] arrays: an object a row costs ~1.5 µs more
  const scored = prepared(
    db,
    `SELECT v.chunk_id AS id, vec_distance_cosine(v.embedding, @q) AS dist
     FROM json_each(@ids) j CROSS JOIN memory_vectors v ON v.chunk_id = j.value`,
  )
    .raw()
    .all({
      q: Buffer.from(q.buffer, q.byteOffset, q.byteLength),
      ids: JSON.stringify(kept.slice(0, exact).map((r) => r.id)),
    }) as Array<[id: number, dist: number]>;
  return [...scored.map(([id, dist]) => ({ id, score: 1 - dist })), ...kept.slice(exact)]
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, depth.read);
}
