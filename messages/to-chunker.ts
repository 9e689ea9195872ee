// Messages the chunker receives: a file to (re)parse, identified by path and the stats the watcher saw.
import type { VaultPath } from './common.js';

export type ChunkerMsg = {
  type: 'chunker.file_changed';
  path: VaultPath;
  mtimeMs: number;
  size: number;
  /** content hash the index holds for this path, if any: equal bytes short-circuit to a stat touch */
  indexedHash: string | null;
};
