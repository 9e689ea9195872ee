// Results grouped by note: one per note, its best-ranked chunk first, with up to ALSO of its other matching chunks.
// An agent asking for 5 results gets 5 notes, not 5 sections of one long note.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';

/** Other matching sections shown with a note's best one. */
export const ALSO = 3;
/** Chunks ranked per wanted note: enough that k notes usually survive grouping, cheap beside the vector pass. */
export const CHUNKS_PER_NOTE = 3;

export interface Ranked {
  id: number;
  score: number;
}

export interface NoteGroup {
  /** the note's document id */
  doc: number;
  best: Ranked;
  also: Ranked[];
}

/**
 * Groups a ranked chunk list by document, in the order of each document's best chunk; the first `k` notes. `known`:
 * documents of chunks the search already looked up (documentsOf's).
 */
export function groupByNote(db: Database, ranked: Ranked[], k: number, known?: Map<number, number>): NoteGroup[] {
  if (ranked.length === 0) return [];
  const docOf = documentsOf(
    db,
    ranked.map((r) => r.id),
    known,
  );
  const groups = new Map<number, NoteGroup>();
  for (const r of ranked) {
    const doc = docOf.get(r.id);
    if (doc === undefined) continue;
    const g = groups.get(doc);
    if (!g) {
      if (groups.size < k) groups.set(doc, { doc, best: r, also: [] });
    } else if (g.also.length < ALSO) g.also.push(r);
  }
  return [...groups.values()];
}

/**
 * The document of each of `chunkIds`, added to `known` (which is returned): only the chunks it does not hold yet
 * are looked up, so the passes of one search share their lookups. Rows come as arrays (an object a row costs ~1.5 µs
 * more).
 */
export function documentsOf(db: Database, chunkIds: readonly number[], known = new Map<number, number>()): Map<number, number> {
  const missing = [...new Set(chunkIds)].filter((id) => !known.has(id));
  if (missing.length === 0) return known;
  const rows = prepared(db, `SELECT c.id, c.document_id AS doc FROM json_each(?) j CROSS JOIN memory_chunks c ON c.id = j.value`)
    .raw()
    .all(JSON.stringify(missing)) as Array<[id: number, doc: number]>;
  for (const [id, doc] of rows) known.set(id, doc);
  return known;
}
