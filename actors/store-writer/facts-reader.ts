// Reads knowledge_facts: the facts current at an instant (valid time from the notes, what the vault says now) and an
// entity's timeline (every row about or pointing at it, invalidated ones included), on any connection to the index.
import type { Database } from 'better-sqlite3';
import { resolveLink } from './facts-writer.js';
import { prepared } from './statement-cache.js';

/** One fact as tools, the CLI and the context endpoint show it (times are epoch ms). */
export interface FactRow {
  id: number;
  subject: string;
  predicate: string;
  object: string;
  /** The note the object links to, when it is a wikilink that resolves. */
  objectPath: string | null;
  validFrom: number | null;
  validUntil: number | null;
  temporary: boolean;
  confidence: number | null;
  recordedAt: number;
  invalidatedAt: number | null;
  path: string;
  line: number;
  sensitive: boolean;
  problem: string | null;
}

export interface FactsQuery {
  /** A subject (a note's title), case-insensitive; all subjects when absent. */
  entity?: string;
  predicate?: string;
  /** Facts whose object is this (text or link target), case-insensitive. */
  object?: string;
  /** Epoch ms; default now. */
  at: number;
  /** Predicates holding one value at a time: of several current values, the one known at `at` and latest wins. */
  singleValued: ReadonlySet<string>;
  includeSensitive?: boolean;
  limit?: number;
  userId?: string;
}

const COLUMNS = `f.id, f.subject, f.predicate, f.object, f.valid_from, f.valid_until, f.temporary, f.confidence,
  f.recorded_at, f.invalidated_at, f.source_path, f.source_line, f.problem,
  f.object_path, f.object_link, f.user_id,
  COALESCE((SELECT d.sensitive FROM memory_documents d WHERE d.id = f.document_id), 0) AS sensitive`;

interface Raw {
  id: number;
  object_link: string | null;
  user_id: string;
  subject: string;
  predicate: string;
  object: string;
  object_path: string | null;
  valid_from: number | null;
  valid_until: number | null;
  temporary: number;
  confidence: number | null;
  recorded_at: number;
  invalidated_at: number | null;
  source_path: string;
  source_line: number;
  sensitive: number;
  problem: string | null;
}

function toRow(db: Database, r: Raw): FactRow {
  return {
    id: r.id,
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    // a note made after the fact line was indexed is found now
    objectPath: r.object_path ?? (r.object_link === null ? null : resolveLink(db, r.user_id, r.object_link)),
    validFrom: r.valid_from,
    validUntil: r.valid_until,
    temporary: r.temporary === 1,
    confidence: r.confidence,
    recordedAt: r.recorded_at,
    invalidatedAt: r.invalidated_at,
    path: r.source_path,
    line: r.source_line,
    sensitive: r.sensitive === 1,
    problem: r.problem,
  };
}

/**
 * Facts holding at `at`: valid then by their own dates (no `from`: since always; `until` is exclusive), as the vault
 * says now. A line removed from its note counts as having held from when it was recorded until it was removed (not
 * from its `from`: a typo fixed in place, or a wrong value deleted or undone, is not believed before anyone wrote it),
 * unless the same fact is still on that note's page (an edit that only added validity, as supersession does).
 */
export function factsAt(db: Database, q: FactsQuery): FactRow[] {
  const where = [`f.user_id = @userId`, `(f.valid_from IS NULL OR f.valid_from <= @at)`, `(f.valid_until IS NULL OR f.valid_until > @at)`];
  where.push(`(f.invalidated_at IS NULL OR (f.invalidated_at > @at AND f.recorded_at <= @at AND NOT EXISTS (SELECT 1 FROM knowledge_facts g
    WHERE g.document_id = f.document_id AND g.invalidated_at IS NULL AND g.predicate = f.predicate AND g.object = f.object)))`);
  if (q.entity !== undefined) where.push(`f.subject = @entity COLLATE NOCASE`);
  if (q.predicate !== undefined) where.push(`f.predicate = @predicate`);
  if (q.object !== undefined) where.push(`(f.object = @object COLLATE NOCASE OR f.object_link = @object COLLATE NOCASE)`);
  const rows = (
    prepared(
      db,
      `SELECT ${COLUMNS} FROM knowledge_facts f WHERE ${where.join(' AND ')} ORDER BY f.subject, f.predicate, f.id LIMIT @limit`,
    ).all({
      userId: q.userId ?? 'default',
      at: q.at,
      entity: q.entity ?? null,
      predicate: q.predicate ?? null,
      object: q.object ?? null,
      limit: q.limit ?? 1000,
    }) as Raw[]
  )
    .map((r) => toRow(db, r))
    .filter((r) => q.includeSensitive || !r.sensitive);
  return oneValueEach(rows, q);
}

/** Of several values of a single-valued predicate: prefer what was recorded by `at`, then the latest start. */
function oneValueEach(rows: FactRow[], q: FactsQuery): FactRow[] {
  const best = new Map<string, FactRow>();
  const rank = (r: FactRow): [number, number, number] => [r.recordedAt <= q.at ? 1 : 0, r.validFrom ?? -Infinity, r.recordedAt];
  for (const r of rows) {
    if (!q.singleValued.has(r.predicate) || r.temporary) continue;
    const key = `${r.subject.toLowerCase()}\u0000${r.predicate}`;
    const held = best.get(key);
    if (!held) {
      best.set(key, r);
      continue;
    }
    const [a, b] = [rank(r), rank(held)];
    if (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2]) best.set(key, r);
  }
  return rows.filter(
    (r) => !q.singleValued.has(r.predicate) || r.temporary || best.get(`${r.subject.toLowerCase()}\u0000${r.predicate}`) === r,
  );
}

/**
 * Every fact about `entity` or whose object is it (text or link), invalidated ones included, in time order: by when
 * it began (its `from`; without one, its `until` or when it was recorded, whichever is earlier), then by when it ended.
 */
export function timeline(db: Database, entity: string, opts: { includeSensitive?: boolean; userId?: string } = {}): FactRow[] {
  const rows = prepared(
    db,
    `SELECT ${COLUMNS} FROM knowledge_facts f
     WHERE f.id IN (
       SELECT id FROM knowledge_facts WHERE user_id = @userId AND subject = @entity COLLATE NOCASE
       UNION SELECT id FROM knowledge_facts WHERE user_id = @userId AND object = @entity COLLATE NOCASE
       UNION SELECT id FROM knowledge_facts WHERE user_id = @userId AND object_link = @entity COLLATE NOCASE)
     ORDER BY COALESCE(f.valid_from, MIN(COALESCE(f.valid_until, f.recorded_at), f.recorded_at)),
       COALESCE(f.valid_until, f.invalidated_at, 9e15), f.id`,
  ).all({ userId: opts.userId ?? 'default', entity }) as Raw[];
  return rows.map((r) => toRow(db, r)).filter((r) => opts.includeSensitive || !r.sensitive);
}

/** One fact by id (live or not), or null. */
export function factById(db: Database, id: number, userId = 'default'): FactRow | null {
  const r = prepared(db, `SELECT ${COLUMNS} FROM knowledge_facts f WHERE f.id = ? AND f.user_id = ?`).get(id, userId) as Raw | undefined;
  return r ? toRow(db, r) : null;
}

/** The current facts read from `path` at `line` (a line may hold several: `[until::]` there applies to them all). */
export function factsOnLine(db: Database, path: string, line: number, userId = 'default'): FactRow[] {
  const rows = prepared(
    db,
    `SELECT ${COLUMNS} FROM knowledge_facts f
     WHERE f.user_id = ? AND f.source_path = ? AND f.source_line = ? AND f.invalidated_at IS NULL ORDER BY f.id`,
  ).all(userId, path, line) as Raw[];
  return rows.map((r) => toRow(db, r));
}

/** The id of the current fact read from `path` at `line` (the newest, if a line was read more than once), or null. */
export function currentFactAt(db: Database, path: string, line: number, userId = 'default'): number | null {
  const id = prepared(
    db,
    `SELECT id FROM knowledge_facts WHERE user_id = ? AND source_path = ? AND source_line = ? AND invalidated_at IS NULL
     ORDER BY id DESC LIMIT 1`,
  )
    .pluck()
    .get(userId, path, line) as number | undefined;
  return id ?? null;
}

/** Names that have current facts (subjects, and link targets of objects): what a query may mention. */
export function factNames(db: Database, userId = 'default'): string[] {
  return prepared(
    db,
    `SELECT subject FROM knowledge_facts WHERE user_id = ? AND invalidated_at IS NULL
     UNION SELECT object_link FROM knowledge_facts WHERE user_id = ? AND invalidated_at IS NULL AND object_link IS NOT NULL`,
  )
    .pluck()
    .all(userId, userId) as string[];
}
