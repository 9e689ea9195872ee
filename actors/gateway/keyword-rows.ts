// The keyword half of a search before its filters: the FTS5 MATCH expression for the query's terms and the best rows
// by bm25. Read in the gateway (search.ts) or in the keyword thread (keyword-worker.ts), by the same code.
import type { Database } from 'better-sqlite3';
import type { KeywordAsk } from '../../messages/keyword.js';
import { prepared } from '../store-writer/statement-cache.js';
import { matchExpression } from './match-budget.js';
import type { Ranking } from './ranking.js';

/** A keyword row: the chunk and FTS5's bm25 (negative, lower is better). */
export type Row = [id: number, b: number];

export type RowsAsk = Pick<KeywordAsk, 'table' | 'terms' | 'needed' | 'fetch' | 'weights' | 'budget'>;

/** The MATCH expression (match-budget.ts) and the best `fetch` rows it matches; call with at least one term. */
export function keywordRows(db: Database, ask: RowsAsk): { match: string; rows: Row[] } {
  const match = matchExpression(db, ask.table, ask.terms, ask.needed, ask.budget);
  return { match, rows: rankedRows(db, ask.table, match, ask.weights, ask.fetch) };
}

/** The best `fetch` rows matching `match`, best bm25 first. */
export function rankedRows(db: Database, table: RowsAsk['table'], match: string, weights: string, fetch: number): Row[] {
  // rows come as [id, b] arrays (raw): an object a row costs ~1.5 µs more
  return prepared(db, `SELECT rowid AS id, bm25(${table}, ${weights}) AS b FROM ${table} WHERE ${table} MATCH ? ORDER BY b LIMIT ?`)
    .raw()
    .all(match, fetch) as Row[];
}

/** The `content, heading, title` weights for FTS5's bm25(). */
export function bm25Weights(ranking: Ranking): string {
  const { content, heading, title } = ranking.columns;
  return `${content}, ${heading}, ${title}`;
}
