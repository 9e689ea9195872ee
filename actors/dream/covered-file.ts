// The covered set on disk, `<data dir>/dream/covered.json`, written by the dream after each consolidated run and
// read by the gateway's searches: the ids whose page still holds them become the filter's list. Written
// atomically; a missing or damaged file hides nothing — a fact is never lost from search by accident.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../../supervisors/runtime/durable-file.js';
import type { Database } from 'better-sqlite3';
import type { CoveredEntry } from './coverage.js';

export function coveredPath(dataDir: string): string {
  return path.join(dataDir, 'dream', 'covered.json');
}

export function loadCovered(file: string): CoveredEntry[] {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { entries?: CoveredEntry[] };
    return Array.isArray(raw.entries)
      ? raw.entries.filter((e) => typeof e?.id === 'string' && typeof e.page === 'string' && typeof e.hash === 'string')
      : [];
  } catch {
    return [];
  }
}

export function saveCovered(file: string, entries: readonly CoveredEntry[]): void {
  replaceFileSync(file, `${JSON.stringify({ version: 1, entries })}\n`);
}

/**
 * Keeps `temp.dream_hidden` on a search connection in step with the covered set: the ids of covered facts whose page
 * is in the index with the bytes that covered them. Refilled only when the file or the index changed (`PRAGMA
 * data_version` moves when another connection commits), so a search pays one indexed lookup per candidate row.
 * Returns whether anything is hidden (false: no filter needed).
 */
export function coveredFilter(file: string, userId = 'default'): (db: Database) => boolean {
  let seenMtime = -1;
  let entries: CoveredEntry[] = [];
  const keys = new WeakMap<Database, { key: string; live: string; any: boolean }>();
  return (db) => {
    let m: number;
    try {
      m = statSync(file).mtimeMs;
    } catch {
      return false;
    }
    if (m !== seenMtime) {
      seenMtime = m;
      entries = loadCovered(file);
    }
    const key = `${m}:${String(db.pragma('data_version', { simple: true }))}`;
    const had = keys.get(db);
    if (had?.key === key) return had.any;
    const pages = [...new Set(entries.map((e) => e.page))];
    const live = new Map(
      (
        db
          .prepare(
            `SELECT source_id, content_hash FROM memory_documents
             WHERE user_id = ? AND source_type = 'vault' AND deleted_at IS NULL AND source_id IN (SELECT value FROM json_each(?))`,
          )
          .all(userId, JSON.stringify(pages)) as Array<{ source_id: string; content_hash: string }>
      ).map((r) => [r.source_id, r.content_hash]),
    );
    // most index changes touch no wiki page: the table is refilled only when a page's bytes (or the file) changed
    const liveSig = `${m}|${[...live].map(([p, h]) => `${p}\u0000${h}`).join('\u0001')}`;
    if (had?.live === liveSig) {
      keys.set(db, { ...had, key });
      return had.any;
    }
    const ids = entries.filter((e) => live.get(e.page) === e.hash).map((e) => e.id);
    db.exec('CREATE TEMP TABLE IF NOT EXISTS dream_hidden (id TEXT PRIMARY KEY) WITHOUT ROWID');
    db.transaction(() => {
      db.exec('DELETE FROM temp.dream_hidden');
      db.prepare('INSERT OR IGNORE INTO temp.dream_hidden (id) SELECT value FROM json_each(?)').run(JSON.stringify(ids));
    })();
    // the temp table's own writes do not move data_version: the key holds until the index or the file changes
    keys.set(db, { key, live: liveSig, any: ids.length > 0 });
    return ids.length > 0;
  };
}
