// Messages the watcher receives: completion notices from the store writer (which release a path's single flight).
import type { VaultPath } from './common.js';

/** What the index now holds for a path: its stats and hash, or null when the path is no longer indexed. */
export interface IndexedState {
  mtimeMs: number;
  size: number;
  contentHash: string;
}

export type WatcherMsg =
  | {
      type: 'watcher.done';
      path: VaultPath;
      state: IndexedState | null;
      /** `stale`: the index holds no live row for a path the watcher took as indexed (a touch changed nothing): look again. */
      outcome: 'indexed' | 'unchanged' | 'deleted' | 'renamed' | 'failed' | 'stale';
    }
  | { type: 'watcher.rescan'; reason: string }
  /** Raw OS events, relative POSIX paths; main owns the OS subscription so events queue while the actor restarts. */
  | { type: 'watcher.fs_events'; paths: string[] };
