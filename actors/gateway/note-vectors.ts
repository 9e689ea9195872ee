// The note-vector list: notes ranked by the cosine of the query and their summary's vector (chunker/summary.ts).
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import type { Ranked } from './group-by-note.js';

/** Notes (document ids) nearest the query by their summary vector, filters applied; [] when the index has none. */
export function noteVectorList(
  db: Database,
  q: Float32Array,
  filters: { where: string; params: Record<string, unknown> },
  depth: number,
): Ranked[] {
  if (!prepared(db, `SELECT 1 FROM sqlite_master WHERE name = 'memory_note_vectors'`).pluck().get()) return [];
  const rows = prepared(
    db,
    `SELECT d.id AS id, vec_distance_cosine(v.embedding, @q) AS dist
     FROM memory_note_vectors v CROSS JOIN memory_documents d ON d.id = v.document_id
     WHERE ${filters.where}
     ORDER BY dist LIMIT @limit`,
  ).all({ ...filters.params, q: Buffer.from(q.buffer, q.byteOffset, q.byteLength), limit: depth }) as Array<{ id: number; dist: number }>;
  return rows.map((r) => ({ id: r.id, score: 1 - r.dist }));
}
