// Prepared statements cached per connection, so hot paths (search, upsert) never re-parse SQL.
import type { Database, Statement } from 'better-sqlite3';

const caches = new WeakMap<Database, Map<string, Statement>>();

/** The prepared statement for `sql` on `db`, prepared once per connection. */
export function prepared<P extends unknown[] = unknown[], R = unknown>(db: Database, sql: string): Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt as unknown as Statement<P, R>;
}

/** Forget cached statements of `db` (after dropping tables they reference). */
export function forgetPrepared(db: Database): void {
  caches.delete(db);
}
