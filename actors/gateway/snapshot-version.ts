// Whether the index changed between two reads on one connection, without reading it again.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';

/**
 * A token that differs after any commit to the index: PRAGMA data_version changes when another connection (the store
 * writer) has committed, total_changes() counts this connection's own writes (a test's or a CLI's one connection).
 * Inside a read transaction it is that of the transaction's snapshot.
 */
export function snapshotVersion(db: Database): string {
  return prepared(db, `SELECT (SELECT data_version FROM pragma_data_version()) || '.' || total_changes()`).pluck().get() as string;
}
