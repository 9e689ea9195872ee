// The vector half of a search: a coarse pass over the sign bits kept in memory (coarse-index.ts), then exact
// cosine on the candidates from the stored float vectors, filters applied.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import { coarseIndex } from './coarse-index.js';
import { type ChunkFacts, chunkFacts, type FilterSql, passing } from './filter-sql.js';
import type { Ranked } from './group-by-note.js';

/**
 * Candidates per wanted hit re-scored exactly; REFINE times as many are taken by Hamming distance and re-ranked by
 * the asymmetric score first (coarse-index.ts). Recall@10 against exact KNN on the real use-lite vectors of the tldr
 * corpus (13.5k) at oversample 20: 0.994 (Hamming alone needed 40 for 0.99); synthetic clustered vectors 1.00
 * (bench/search-latency.ts). The scan costs the same for any count (~0.3 ms at 100k); a re-score ~3 µs a candidate.
 */
export const DEFAULT_OVERSAMPLE = 20;
/** Hamming candidates per candidate kept for the exact re-score. */
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
 * The `depth` chunks nearest `q` by cosine among those passing `filters`: `k × oversample` candidates (at least
 * `depth`), the best by the asymmetric score of the nearest REFINE times as many by Hamming distance, re-scored
 * exactly. Call inside the read transaction the rest of the search uses.
 */
export function vectorList(
  db: Database,
  q: Float32Array,
  filters: FilterSql,
  k: number,
  depth: number,
  oversample: number,
  facts: ChunkFacts = chunkFacts(),
): Ranked[] {
  const coarse = coarseIndex(db);
  if (!coarse || coarse.size === 0) return [];
  const want = Math.max(depth, Math.ceil(k * oversample));
  if (filters.selective) {
    // a narrow filter: list the chunks that pass (one query), and scan only their bits
    const cap = Math.max(MIN_LISTED, Math.ceil(coarse.size * LISTED_SHARE));
    const listed = filteredChunks(db, filters, cap + 1);
    if (listed.length <= cap)
      return rescore(db, q, filters, coarse.refine(q, coarse.nearest(q, want * REFINE, listed), want), depth, facts);
  }
  // Most chunks pass (a wide filter, or only the user, deleted and sensitive ones are filtered): re-score the nearest
  // by cosine, keep those that pass, and widen while too few did.
  for (let n = want; ; n *= 4) {
    const near = coarse.nearest(q, n * REFINE);
    const kept = coarse.refine(q, near, n);
    const rows = rescore(db, q, filters, kept, depth, facts);
    // enough passed, or every vector there is was re-scored
    if (rows.length >= depth || (near.length < n * REFINE && kept.length === near.length)) return rows;
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
 * Exact cosine of the candidates that pass the filters, best `depth` first. The floats are read alone first (one
 * page a candidate; the chunk and document rows would be two more, mostly missing SQLite's cache at 100k chunks:
 * 500 candidates took ~15 ms joined, ~1.4 ms alone), then the filters are checked on the best, a batch at a time.
 */
function rescore(db: Database, q: Float32Array, filters: FilterSql, ids: readonly number[], depth: number, facts: ChunkFacts): Ranked[] {
  if (ids.length === 0) return [];
  // rows as [id, dist] arrays: an object a row costs ~1.5 µs more (200 rows: ~0.3 ms)
  const scored = prepared(
    db,
    `SELECT v.chunk_id AS id, vec_distance_cosine(v.embedding, @q) AS dist
     FROM json_each(@ids) j CROSS JOIN memory_vectors v ON v.chunk_id = j.value
     ORDER BY dist, v.chunk_id`,
  )
    .raw()
    .all({ q: Buffer.from(q.buffer, q.byteOffset, q.byteLength), ids: JSON.stringify(ids) }) as Array<[id: number, dist: number]>;
  const out: Ranked[] = [];
  // the first batch: as many as wanted and a few more, the filters rarely fail (another user's or a sensitive note)
  for (let at = 0, batch = depth + FILTER_SLACK; at < scored.length && out.length < depth; at += batch, batch *= 4) {
    const slice = scored.slice(at, at + batch);
    const pass = new Set(
      passing(
        db,
        filters,
        slice.map(([id]) => id),
        facts,
      ),
    );
    for (const [id, dist] of slice) if (pass.has(id) && out.length < depth) out.push({ id, score: 1 - dist });
  }
  return out;
}
