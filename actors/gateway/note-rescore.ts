// Complete scores for the candidate notes of a hybrid search: the notes either list ranks near the top are scored
// from deeper bm25 and vector lists, so fusion compares each note on both kinds of evidence rather than on where
// each list happened to cut off.
import type { Database } from 'better-sqlite3';
import { documentsOf, type Ranked } from './group-by-note.js';

/**
 * Chunks each deep list reads. FTS5 scores every matching row whatever the LIMIT, and the vector pass re-scores
 * k × oversample candidates exactly whatever it returns, so reading deeper costs little; a candidate's chunk below
 * the deep cut-off counts as absent (it scores near the bottom of that list anyway).
 */
export const COMPLETE_DEPTH = 100;

/**
 * `deep` lists kept to the chunks of the notes that `shallow` lists found; each chunk's document is added to `known`
 * (as documentsOf does), which the note ranking then reads.
 */
export function completeLists(db: Database, shallow: Ranked[][], deep: Ranked[][], known?: Map<number, number>): Ranked[][] {
  const docOf = documentsOf(
    db,
    [...shallow.flat(), ...deep.flat()].map((r) => r.id),
    known,
  );
  const docs = new Set(shallow.flat().map((r) => docOf.get(r.id)));
  return deep.map((list) => list.filter((r) => docs.has(docOf.get(r.id))));
}
