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
  best: Ranked;
  also: Ranked[];
}

/** Groups a ranked chunk list by document, in the order of each document's best chunk; the first `k` notes. */
export function groupByNote(db: Database, ranked: Ranked[], k: number): NoteGroup[] {
  if (ranked.length === 0) return [];
  const docOf = new Map(
    chunkDocuments(
      db,
      ranked.map((r) => r.id),
    ),
  );
  const groups = new Map<number, NoteGroup>();
  for (const r of ranked) {
    const doc = docOf.get(r.id);
    if (doc === undefined) continue;
    const g = groups.get(doc);
    if (!g) {
      if (groups.size < k) groups.set(doc, { best: r, also: [] });
    } else if (g.also.length < ALSO) g.also.push(r);
  }
  return [...groups.values()];
}

/** [chunk id, document id] of each of `chunkIds` that exists, as arrays (an object a row costs ~1.5 µs more). */
export function chunkDocuments(db: Database, chunkIds: readonly number[]): Array<[id: number, doc: number]> {
  return prepared(db, `SELECT c.id, c.document_id AS doc FROM json_each(?) j CROSS JOIN memory_chunks c ON c.id = j.value`)
    .raw()
    .all(JSON.stringify(chunkIds)) as Array<[id: number, doc: number]>;
}
