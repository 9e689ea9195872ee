// Note-level scoring: each ranked chunk list folded to notes (a note's best chunk plus a little of its next ones),
// the note lists fused, and each note shown by its best chunk in the fused chunk list.
import type { Database } from 'better-sqlite3';
import { fuseLists, type WeightedList } from './fusion.js';
import { ALSO, documentsOf, type NoteGroup, type Ranked } from './group-by-note.js';
import type { Fusion, Ranking } from './ranking.js';

export type ChunkList = WeightedList & { kind: 'bm25' | 'vector' };

export interface NoteEvidence {
  /** Chunk lists, each best first. */
  chunks: ChunkList[];
  /** The chunk lists fused: picks which section shows each note. */
  fused: Ranked[];
  /** Documents of chunks the caller already looked up (documentsOf's `known`): only the others are looked up. */
  docOf?: Map<number, number>;
}

/** The first `k` notes by note-level score, each with its best chunk and up to ALSO more; best.score is the note's. */
export function rankNotes(
  db: Database,
  ev: NoteEvidence,
  note: NonNullable<Ranking['note']>,
  fusion: Fusion,
  k: number,
  minScore = -Infinity,
): NoteGroup[] {
  const docOf = documentsOf(
    db,
    ev.chunks.flatMap((l) => l.items.map((r) => r.id)),
    ev.docOf,
  );
  const lists = ev.chunks.map((l) => ({ ...l, items: foldToNotes(l.items, docOf, note[l.kind], note.count) }));
  const notes = lists.filter((l) => l.weight > 0 && l.items.length > 0).length === 1 ? single(lists) : fuseLists(lists, fusion);
  const top = notes.filter((n) => n.score >= minScore).slice(0, k);
  const byDoc = new Map<number, Ranked[]>();
  for (const r of ev.fused) {
    const d = docOf.get(r.id);
    if (d === undefined) continue;
    const list = byDoc.get(d);
    if (list) list.push(r);
    else byDoc.set(d, [r]);
  }
  return top.flatMap((n) => {
    // every note came from a chunk list, so it has chunks in the fused list
    const [best, ...rest] = byDoc.get(n.id) ?? [];
    return best ? [{ doc: n.id, best: { id: best.id, score: n.score }, also: rest.slice(0, ALSO) }] : [];
  });
}

/** A list alone keeps its own scores (cosine, normalised bm25) rather than fusion's. */
function single(lists: WeightedList[]): Ranked[] {
  return lists.find((l) => l.weight > 0 && l.items.length > 0)!.items;
}

/** A note's score in one list: its best chunk's plus `next` × each of its following `count` chunks. */
export function foldToNotes(list: Ranked[], docOf: Map<number, number>, next: number, count: number): Ranked[] {
  const acc = new Map<number, { score: number; seen: number }>();
  for (const r of list) {
    const d = docOf.get(r.id);
    if (d === undefined) continue;
    const a = acc.get(d);
    if (!a) acc.set(d, { score: r.score, seen: 1 });
    else if (a.seen <= count) {
      a.score += next * r.score;
      a.seen++;
    }
  }
  return [...acc].map(([id, a]) => ({ id, score: a.score })).sort((x, y) => y.score - x.score || x.id - y.id);
}
