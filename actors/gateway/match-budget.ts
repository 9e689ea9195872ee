// Which of a query's terms a keyword search matches: the rarest first, while the rows they match stay within a
// budget. How many rows each term matches is cached per connection until the index changes.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import type { FtsQuery } from './fts-query.js';
import { snapshotVersion } from './snapshot-version.js';

/**
 * Rows bm25 may score for one query. An OR query with a common word matches most chunks, and scoring plus
 * sorting costs ~0.8 µs a row; the most common words are left out of the match (rarest kept first) as long as
 * the rest find enough rows. Such words carry almost no bm25 weight, so the ranking barely changes.
 */
export const MATCH_BUDGET = 5000;
/** Terms whose counts one connection keeps (a few hundred KB); past it the cache starts again. */
const MAX_CACHED = 20_000;

interface Counts {
  /** snapshotVersion() when counted. */
  version: string;
  byTerm: Map<string, number>;
}
const cache = new WeakMap<Database, Counts>();

/** The terms to match: rarest first, adding more while the rows they match stay within MATCH_BUDGET. */
export function withinBudget(db: Database, table: FtsQuery['table'], terms: string[], needed: number): string[] {
  if (terms.length === 1) return terms;
  const count = termCounter(db, table);
  const byRarity = terms.map((t) => ({ t, n: count(t) })).sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  let rows = 0;
  for (const { t, n } of byRarity) {
    if (n === 0) continue;
    if (kept.length > 0 && rows >= needed && rows + n > MATCH_BUDGET) break;
    kept.push(t);
    rows += n;
  }
  return kept.length > 0 ? kept : terms;
}

/**
 * Rows a term matches in `table`, counted up to MATCH_BUDGET + 1 (~0.2 ms a term at 100k chunks) or taken from the
 * cache when the index has not changed since. Call inside the search's read transaction: the counts are then
 * those of its snapshot.
 */
function termCounter(db: Database, table: FtsQuery['table']): (term: string) => number {
  const version = snapshotVersion(db);
  let c = cache.get(db);
  if (!c || c.version !== version || c.byTerm.size > MAX_CACHED) {
    c = { version, byTerm: new Map() };
    cache.set(db, c);
  }
  const { byTerm } = c;
  const stmt = prepared(db, `SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ${MATCH_BUDGET + 1})`).pluck();
  return (term) => {
    const key = `${table}\u0000${term}`;
    let n = byTerm.get(key);
    if (n === undefined) {
      n = stmt.get(term) as number;
      byTerm.set(key, n);
    }
    return n;
  };
}
