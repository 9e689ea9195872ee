// How search weighs its evidence — bm25 column weights, list depth, fusion, note-level scoring — as data.
// The retrieval bench (bench/retrieval-quality.ts) measures each setting against BASELINE_RANKING in the same run.

export interface Ranking {
  /** FTS5 bm25 weights of memory_fts's columns. The chunk text already starts with its `Title > Heading` line. */
  columns: { content: number; heading: number; title: number };
  /** Chunks each list hands to hybrid fusion: max(perK × k, 20). */
  depth: { bm25: number; vector: number };
  fusion: Fusion;
  /**
   * Note-level scoring (group: note). null: a note ranks where its best chunk lands in the fused chunk list.
   * Otherwise each list is first folded to notes, a note scoring its best chunk plus `bm25` (or `vector`) × each of
   * its following `count` chunks in that list, and the note lists are fused.
   */
  note: { bm25: number; vector: number; count: number } | null;
  /**
   * With note-level scoring in hybrid mode: both lists are read COMPLETE_DEPTH deep (note-rescore.ts), and the notes
   * either list ranks within its depth are scored from both deep lists before folding and fusion (a note just past
   * one list's cut-off still counts there).
   */
  complete: boolean;
  /**
   * Pseudo-relevance feedback in hybrid mode (feedback.ts): the query vector moved toward the stored vectors of the
   * first pass's best `k` notes, q' = normalize(q + beta × their mean), reads a further vector list that is fused
   * beside the other two at `weight`, its candidates `oversample` per wanted hit (the search's own when absent).
   * null: one pass.
   */
  feedback: { k: number; beta: number; weight: number; oversample?: number } | null;
}

/**
 * - rrf: Σ weight / (k + rank) over the lists;
 * - score: Σ weight × the list's score min-max normalised over its candidates (fusion.ts; 0 when absent).
 * Both are divided by their maximum, so 1 means top of every list. `vector` weighs the vector list against bm25's 1.
 */
export type Fusion = { kind: 'rrf'; k: number; vector: number } | { kind: 'score'; vector: number };

/** What search did before issue 18's ranking work: kept so the bench can measure every change against it. */
export const BASELINE_RANKING: Ranking = {
  columns: { content: 1, heading: 2, title: 2 },
  depth: { bm25: 2, vector: 2 },
  fusion: { kind: 'rrf', k: 60, vector: 1 },
  note: null,
  complete: false,
  feedback: null,
};

/**
 * What search does: each setting chosen on the retrieval bench's tuning half and kept for what it did on the
 * held-out half (README, "Retrieval quality"): a note ranks by its best bm25 chunk and its best vector chunk plus a
 * tenth of its next two, each list read deeper to score the other's candidates, fused by min-max-normalised score
 * with the weaker vector list at half weight; and pseudo-relevance feedback: the query vector moved toward the
 * first pass's best two notes finds a third list, fused beside the others at half weight, from 15 candidates per
 * wanted hit re-scored exactly rather than the first pass's 20 (as good on the tuning half, a quarter less work).
 */
export const DEFAULT_RANKING: Ranking = {
  ...BASELINE_RANKING,
  fusion: { kind: 'score', vector: 0.5 },
  note: { bm25: 0, vector: 0.1, count: 2 },
  complete: true,
  feedback: { k: 2, beta: 0.7, weight: 0.5, oversample: 15 },
};

/** Minimum chunks a list hands to fusion, whatever k. */
export const MIN_DEPTH = 20;

export type RankingOverrides = {
  [K in keyof Ranking]?: Ranking[K] extends object | null ? Partial<NonNullable<Ranking[K]>> | Ranking[K] : Ranking[K];
};

/** `base` with `over` applied one level deep (a whole `fusion`, `note` or `feedback` replaces; `columns` and `depth` merge). */
export function withRanking(base: Ranking, over: RankingOverrides = {}): Ranking {
  const merge = <T extends object>(a: T, b: Partial<T> | undefined): T => (b === undefined ? a : { ...a, ...b });
  return {
    columns: merge(base.columns, over.columns),
    depth: merge(base.depth, over.depth),
    fusion: (over.fusion as Fusion | undefined) ?? base.fusion,
    note: over.note === undefined ? base.note : (over.note as Ranking['note']),
    complete: over.complete ?? base.complete,
    feedback: over.feedback === undefined ? base.feedback : (over.feedback as Ranking['feedback']),
  };
}
