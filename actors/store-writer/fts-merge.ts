// The full-text tables merged into one segment while the writer is idle. Each write transaction adds a segment (a
// b-tree) to an FTS5 index, and FTS5 merges them level by level only as they pile up: bulk indexing leaves a dozen or
// more (13 in the 100k-chunk bench store, 17 in the retrieval bench's daemon-built 19k-chunk index), and a query reads
// each of its terms from every segment that holds it. Merged into one, the bench store's keyword query took 4.8 ms
// against 5.8 (median, 220 queries) and a hybrid search over HTTP ×0.958–0.967 (README, "Search latency").
import type { Database } from 'better-sqlite3';
import { prepared } from './statement-cache.js';

export const FTS_TABLES = ['memory_fts', 'memory_fts_bigram'] as const;
export type FtsTable = (typeof FTS_TABLES)[number];

/**
 * A table is merged once this share of its index lies outside its largest segment: a merge then rewrites at most
 * 1 / SCATTERED_SHARE times what was written since the last one, and a note saved now and then (a small segment each)
 * never rewrites the whole index.
 */
export const SCATTERED_SHARE = 0.2;
/** Below this many leaf pages a table is left as it is (a small vault's index is read in a few pages anyway). */
export const MIN_PAGES = 16;
/** Leaf pages one merge step writes: ~8 ms at 100k chunks, so a write that arrives meanwhile waits at most that. */
export const STEP_PAGES = 64;
/** How long the writer must have had nothing to do before it merges (each message it handles restarts the wait). */
export const IDLE_MS = 1000;

/** How a table's index lies: its segments, its leaf pages (rows of its `_idx` table) and the share outside the largest. */
export interface Layout {
  segments: number;
  pages: number;
  scattered: number;
}

export function layout(db: Database, table: FtsTable): Layout {
  const sizes = prepared(db, `SELECT count(*) FROM ${table}_idx GROUP BY segid`).pluck().all() as number[];
  const pages = sizes.reduce((s, n) => s + n, 0);
  return { segments: sizes.length, pages, scattered: pages === 0 ? 0 : 1 - Math.max(...sizes) / pages };
}

export function needsMerge(l: Layout): boolean {
  return l.segments > 1 && l.pages >= MIN_PAGES && l.scattered >= SCATTERED_SHARE;
}

/**
 * One step toward a single segment, in its own transaction: FTS5's `merge` with a negative page count puts every
 * segment on one level and merges them `pages` leaf pages at a time. True while there is more to merge (FTS5's own
 * test: the step changed fewer than two rows when nothing was left).
 */
export function mergeStep(db: Database, table: FtsTable, pages = STEP_PAGES): boolean {
  const changes = prepared(db, 'SELECT total_changes()').pluck();
  const before = changes.get() as number;
  db.transaction(() => prepared(db, `INSERT INTO ${table}(${table}, rank) VALUES ('merge', ?)`).run(-pages))();
  return (changes.get() as number) - before >= 2;
}

/** Every table that needs it merged into one segment now: a bench's store, as the daemon leaves it once idle. */
export function mergeNow(db: Database): void {
  for (const t of FTS_TABLES) if (needsMerge(layout(db, t))) while (mergeStep(db, t, 1024));
}

export interface IdleMergeDeps {
  /** The write connection, or null while there is none (a read-only disk). */
  db(): Database | null;
  idleMs: number;
  /** Leaf pages a step writes (STEP_PAGES unless a test wants many steps). */
  stepPages?: number;
  merged(m: { table: FtsTable; steps: number; ms: number; before: Layout }): void;
  failed(table: FtsTable, err: Error): void;
}

/**
 * Merges the tables that need it in small steps while the writer has nothing else to do. `busy()` on every message
 * the writer handles pauses the merge and starts the idle wait again; a merge left half done goes on at the next idle.
 */
export class IdleMerge {
  readonly #deps: IdleMergeDeps;
  #timer: NodeJS.Timeout | null = null;
  /** The merge under way: a table with steps left, since when, and how it lay before. */
  #current: { table: FtsTable; steps: number; startedAt: number; before: Layout } | null = null;

  constructor(deps: IdleMergeDeps) {
    this.#deps = deps;
  }

  /** The writer has work: merge nothing until it has been idle `idleMs` again. */
  busy(): void {
    this.#arm(this.#deps.idleMs);
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(ms: number): void {
    this.stop();
    this.#timer = setTimeout(() => this.#step(), ms);
    this.#timer.unref();
  }

  #step(): void {
    this.#timer = null;
    const db = this.#deps.db();
    if (!db) return;
    let table: FtsTable | undefined;
    try {
      if (!this.#current) {
        for (const t of FTS_TABLES) {
          const before = layout(db, t);
          if (needsMerge(before)) {
            this.#current = { table: t, steps: 0, startedAt: performance.now(), before };
            break;
          }
        }
        if (!this.#current) return; // nothing to merge until the next write
      }
      const c = this.#current;
      table = c.table;
      c.steps++;
      if (mergeStep(db, c.table, this.#deps.stepPages)) {
        this.#arm(0); // a queued message runs before the next step
        return;
      }
      this.#current = null;
      this.#deps.merged({ table: c.table, steps: c.steps, ms: Math.round(performance.now() - c.startedAt), before: c.before });
      this.#arm(0); // the next table, if it needs it
    } catch (err) {
      this.#current = null; // the next idle looks again (a full disk: the writer's own retry reports it)
      this.#deps.failed(table ?? FTS_TABLES[0], err as Error);
    }
  }
}
