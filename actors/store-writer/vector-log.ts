// The vector log: which chunks' vectors changed, in order, written in the same transaction as the change, so a
// reader that keeps vectors in memory (the gateway's coarse index) follows the store without rescanning it.
import type { Database } from 'better-sqlite3';
import { prepared } from './statement-cache.js';

/**
 * Rows the log keeps: past twice this many the oldest are pruned, down to this many. A reader that fell further
 * behind (a bulk import between two of its searches) reloads everything, which is then cheaper than the deltas.
 */
export const LOG_KEEP = 50_000;
/** meta key: every log row up to this sequence number has been pruned. */
const PRUNED_KEY = 'vector_log_pruned';

/**
 * The log (schema v3): `chunk_id` names a chunk whose vector was added or removed (a reader looks at what is stored
 * now, so one row serves both); NULL means every vector changed (another model: the tables were dropped). Sequence
 * numbers only grow (AUTOINCREMENT), even after pruning.
 */
export const VECTOR_LOG_SQL = `CREATE TABLE memory_vector_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, chunk_id INTEGER);`;

/**
 * Triggers on the bit table, created with it: whatever writes vectors, the log cannot miss it. A chunk's float
 * and bit vectors are written and deleted together (index-writer.ts, memory_chunks_vec_ad), so the bits stand for both.
 */
export const VECTOR_LOG_TRIGGERS_SQL = `
  CREATE TRIGGER memory_vectors_bit_log_ai AFTER INSERT ON memory_vectors_bit BEGIN
    INSERT INTO memory_vector_log(chunk_id) VALUES (new.chunk_id);
  END;
  CREATE TRIGGER memory_vectors_bit_log_au AFTER UPDATE ON memory_vectors_bit BEGIN
    INSERT INTO memory_vector_log(chunk_id) VALUES (old.chunk_id);
    INSERT INTO memory_vector_log(chunk_id) VALUES (new.chunk_id);
  END;
  CREATE TRIGGER memory_vectors_bit_log_ad AFTER DELETE ON memory_vectors_bit BEGIN
    INSERT INTO memory_vector_log(chunk_id) VALUES (old.chunk_id);
  END;
`;

/** SQL recording that every vector changed (the vector tables were dropped: dropping fires no triggers). */
export const VECTOR_LOG_RESET_SQL = `INSERT INTO memory_vector_log(chunk_id) VALUES (NULL);`;

/**
 * Drops the oldest rows once the log holds more than 2 × `keep`, down to `keep`, recording how far it went, in the
 * caller's write transaction (the rows and the mark go together). Two index lookups when there is nothing to drop.
 */
export function pruneVectorLog(db: Database, keep = LOG_KEEP): void {
  const r = prepared(db, `SELECT min(seq) AS lo, max(seq) AS hi FROM memory_vector_log`).get() as { lo: number | null; hi: number | null };
  if (r.lo === null || r.hi === null || r.hi - r.lo + 1 <= 2 * keep) return;
  const through = r.hi - keep;
  prepared(db, `DELETE FROM memory_vector_log WHERE seq <= ?`).run(through);
  prepared(db, `INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
    PRUNED_KEY,
    String(through),
  );
}

export interface VectorLogState {
  /** The last sequence number written (0: none yet). */
  head: number;
  /** Rows up to here are gone: a reader that has applied less must reload. */
  pruned: number;
}

/** Where the log stands, in the caller's read snapshot. */
export function vectorLogState(db: Database): VectorLogState {
  const r = prepared(
    db,
    `SELECT (SELECT coalesce(max(seq), 0) FROM memory_vector_log) AS head,
            (SELECT coalesce(CAST(value AS INTEGER), 0) FROM meta WHERE key = '${PRUNED_KEY}') AS pruned`,
  ).get() as { head: number; pruned: number | null };
  return { head: r.head, pruned: r.pruned ?? 0 };
}

/** Chunk ids changed after `seq` (each once), or null when every vector changed in between. */
export function vectorChangesSince(db: Database, seq: number): number[] | null {
  const ids = prepared(db, `SELECT DISTINCT chunk_id FROM memory_vector_log WHERE seq > ?`).pluck().all(seq) as Array<number | null>;
  if (ids.includes(null)) return null;
  return ids as number[];
}
