// Swaps a rebuilt index file in with one rename; used by the store writer (daemon running) and by offline reindex.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { isDamagedIndex, openIndex } from './schema.js';

/** Replace `current` by `next` atomically. Every connection to `current` must be closed (its WAL folded in). */
export function swapIndexFiles(next: string, current: string): void {
  if (existsSync(current)) {
    try {
      const db = openIndex(current, { readonly: false });
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    } catch (err) {
      // a file SQLite cannot read is what a reindex replaces: its WAL holds nothing worth folding in
      if (!isDamagedIndex(err)) throw err;
    }
  }
  rmSync(`${current}-wal`, { force: true });
  rmSync(`${current}-shm`, { force: true });
  renameSync(next, current);
  rmSync(`${next}-wal`, { force: true });
  rmSync(`${next}-shm`, { force: true });
}
