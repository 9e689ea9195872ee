// The gateway ↔ keyword thread protocol: a hybrid search's keyword rows read in a thread of their own while the
// query is embedded and its vector pass runs (actors/gateway/keyword-thread.ts, keyword-worker.ts).

/** What the keyword half of one search reads: the best `fetch` rows by bm25 matching the terms, before any filter. */
export interface KeywordAsk {
  /** the index file, as opened for `generation` (a reindex swaps the file and bumps it) */
  file: string;
  generation: number;
  table: 'memory_fts' | 'memory_fts_bigram';
  terms: string[];
  /** rows the search needs after its filters (the match budget's `needed`) */
  needed: number;
  /** rows to read: `needed` and a few more, for the ones the filters drop */
  fetch: number;
  /** FTS5 bm25() column weights, `content, heading, title` */
  weights: string;
  /** rows bm25 may score (search.match_budget); the default when absent */
  budget?: number;
}

export type ToKeyword = { type: 'keyword.read'; id: number; ask: KeywordAsk };

export type FromKeyword =
  | { type: 'keyword.ready' }
  /** chunk ids and their bm25 (negative, lower is better), best first; `match` is the MATCH expression that ran */
  | { type: 'keyword.rows'; id: number; generation: number; match: string; ids: Float64Array; bm25: Float64Array }
  | { type: 'keyword.failed'; id: number; reason: string; message: string };
