// Swaps a rebuilt index file in with one rename; used by the store writer (daemon running) and by offline reindex.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { isDamagedIndex, openIndex } from './schema.js';

/** Replace `current` by `next` atomically. Every connection to `current` must be closed (its WAL folded in). */
export function swapIndexFiles(next: string, current: string): void {
  if (existsSync(current)) {
    try {
      checkpointIndex(current);
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

/**
 * Folds the WAL of `file` into it and lets SQLite remove the WAL and -shm files: call it once every other connection
 * is closed (a read-only connection closing last cannot checkpoint, and leaves the WAL behind).
 */
export function checkpointIndex(file: string): void {
  const db = openIndex(file, { readonly: false });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
