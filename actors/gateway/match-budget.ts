// How a keyword search matches a query's terms: every row holding one of its rarer terms, the rarest first while the
// rows they match stay within a budget; the common terms then only score those rows. How many rows each term matches
// is cached per connection until the index changes.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import type { FtsQuery } from './fts-query.js';
import { snapshotVersion } from './snapshot-version.js';

/**
 * Rows bm25 may score for one query (the default of `search.match_budget`). An OR query with a common word matches
 * most chunks, and scoring plus sorting costs ~0.8 µs a row; past the budget, rows must hold one of the rarer words
 * (matchExpression). 2,500 with the common words still scored costs what 5,000 with them left out did (×1.01 at 100k
 * chunks) and ranks better at scale; 5,000 ranks better still there, for ~2 ms a hybrid search (README).
 */
export const MATCH_BUDGET = 2500;
/** Rows a list ranks (`rank`) and reads (`read`, more for a hybrid search's complete scores). */
export interface Needed {
  rank: number;
  read: number;
}

/** Terms whose counts one connection keeps (a few hundred KB); past it the cache starts again. */
const MAX_CACHED = 20_000;

interface Counts {
  /** snapshotVersion() when counted. */
  version: string;
  /** the budget counted up to */
  budget: number;
  byTerm: Map<string, number>;
}
const cache = new WeakMap<Database, Counts>();

/**
 * The FTS5 MATCH expression for a query's terms: all of them OR'ed while the rows they match stay within `budget`
 * (MATCH_BUDGET unless the operator set `search.match_budget`). Past it, the rarest terms that fit (as many as find
 * the rows `needed`: withinBudget) decide which rows match, and the common ones still count: `(r1 OR r2) AND (r1 OR
 * r2 OR c1)` matches only rows holding r1 or r2, FTS5 seeks in c1's list instead of scoring its every row, and bm25
 * sums over every phrase of the expression, so a row holding c1 too ranks above one that does not (the rarer terms
 * count twice; the README's figures are of this expression). Left out entirely (the match before), the common words cost 13 points of
 * bm25 recall@5 at the scale of 100k chunks (the retrieval bench's 19k chunks with the budget scaled down to match:
 * README, "Common words at scale").
 */
export function matchExpression(db: Database, table: FtsQuery['table'], terms: string[], needed: Needed, budget = MATCH_BUDGET): string {
  const { kept, common } = withinBudget(db, table, terms, needed, budget);
  const any = kept.join(' OR ');
  return common.length === 0 ? any : `(${any}) AND (${[...kept, ...common].join(' OR ')})`;
}

/**
 * The terms rows must hold (`kept`): rarest first, adding more while the rows they match stay within `budget` or
 * fall short of those needed; and the more common terms that found rows too (`common`). A term matching more rows
 * than the whole budget is let in only while the list has fewer rows than it ranks (`needed.rank`), not for those it
 * only reads (a hybrid search reads 100 for its complete scores): at 100k bench chunks a query whose rarer words
 * matched 75 rows scored every row of "path" and "file" to find 100, 45–64 ms over HTTP where others took ~20.
 */
function withinBudget(
  db: Database,
  table: FtsQuery['table'],
  terms: string[],
  needed: Needed,
  budget: number,
): { kept: string[]; common: string[] } {
  if (terms.length === 1) return { kept: terms, common: [] };
  const count = termCounter(db, table, budget);
  const byRarity = terms.map((t) => ({ t, n: count(t) })).sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  const common: string[] = [];
  let rows = 0;
  for (const { t, n } of byRarity) {
    if (n === 0) continue;
    const need = n > budget ? needed.rank : needed.read;
    if (common.length > 0 || (kept.length > 0 && rows >= need && rows + n > budget)) common.push(t);
    else {
      kept.push(t);
      rows += n;
    }
  }
  return kept.length > 0 ? { kept, common } : { kept: terms, common: [] };
}

/**
 * Rows a term matches in `table`, counted up to `budget` + 1 (~0.2 ms a term at 100k chunks) or taken from the
 * cache when the index has not changed since. Call inside the search's read transaction: the counts are then
 * those of its snapshot.
 */
function termCounter(db: Database, table: FtsQuery['table'], budget: number): (term: string) => number {
  const version = snapshotVersion(db);
  let c = cache.get(db);
  if (!c || c.version !== version || c.budget !== budget || c.byTerm.size > MAX_CACHED) {
    c = { version, budget, byTerm: new Map() };
    cache.set(db, c);
  }
  const { byTerm } = c;
  const stmt = prepared(db, `SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ${budget + 1})`).pluck();
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
