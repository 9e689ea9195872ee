// The vector half of a search: a coarse pass over the sign bits kept in memory (coarse-index.ts), then exact
// cosine on the candidates from the stored float vectors, filters applied.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import { coarseIndex } from './coarse-index.js';
import { type FilterSql, passing } from './filter-sql.js';
import type { Ranked } from './group-by-note.js';

/**
 * Bit-vector candidates per wanted hit before exact re-scoring. Recall@10 against exact KNN on the real use-lite
 * vectors of the tldr corpus (13.5k): 0.91 at 10, 0.97 at 20, 0.99 at 40, 0.996 at 60; on synthetic clustered
 * vectors 1.00 from 10 (bench/search-latency.ts). The coarse pass costs the same for any count (one scan, ~0.3 ms
 * at 100k); each candidate costs ~3 µs to re-score from SQLite.
 */
export const DEFAULT_OVERSAMPLE = 50;
/**
 * A caller's filter that passes at most this share of the chunks (or MIN_LISTED) is searched by listing the chunks
 * that pass (one query) and scanning only their bits; a wider one walks the Hamming order, keeping those that pass.
 */
const LISTED_SHARE = 1 / 16;
const MIN_LISTED = 2_000;

/**
 * The `depth` chunks nearest `q` by cosine among those passing `filters`: the nearest `k × oversample` (at least
 * `depth`) by Hamming distance, re-scored exactly. Call inside the read transaction the rest of the search uses.
 */
export function vectorList(db: Database, q: Float32Array, filters: FilterSql, k: number, depth: number, oversample: number): Ranked[] {
  const coarse = coarseIndex(db);
  if (!coarse || coarse.size === 0) return [];
  const want = Math.max(depth, Math.ceil(k * oversample));
  if (!filters.selective) {
    // Almost every chunk passes (only the user, deleted and sensitive ones are filtered): widen if too few did.
    for (let n = want; ; n *= 4) {
      const ids = coarse.nearest(q, n);
      const rows = rescore(db, q, filters, ids, depth);
      if (rows.length >= depth || ids.length < n) return rows;
    }
  }
  const cap = Math.max(MIN_LISTED, Math.ceil(coarse.size * LISTED_SHARE));
  const listed = filteredChunks(db, filters, cap + 1);
  if (listed.length <= cap) return rescore(db, q, filters, coarse.nearest(q, want, listed), depth);
  const kept: number[] = [];
  for (let n = want * 4, seen = 0; ; n *= 4) {
    const ids = coarse.nearest(q, n);
    kept.push(...passing(db, filters, ids.slice(seen)));
    seen = ids.length;
    if (kept.length >= want || ids.length < n) return rescore(db, q, filters, kept.slice(0, want), depth);
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

/** Exact cosine of the candidates that pass the filters, best `depth` first. */
function rescore(db: Database, q: Float32Array, filters: FilterSql, ids: readonly number[], depth: number): Ranked[] {
  if (ids.length === 0) return [];
  const rows = prepared(
    db,
    `SELECT c.id AS id, vec_distance_cosine(v.embedding, @q) AS dist
     FROM json_each(@ids) j
     CROSS JOIN memory_chunks c ON c.id = j.value
     CROSS JOIN memory_documents d ON d.id = c.document_id
     CROSS JOIN memory_vectors v ON v.chunk_id = c.id
     WHERE ${filters.where}
     ORDER BY dist, c.id LIMIT @limit`,
  ).all({
    ...filters.params,
    q: Buffer.from(q.buffer, q.byteOffset, q.byteLength),
    ids: JSON.stringify(ids),
    limit: depth,
  }) as Array<{ id: number; dist: number }>;
  return rows.map((r) => ({ id: r.id, score: 1 - r.dist }));
}
