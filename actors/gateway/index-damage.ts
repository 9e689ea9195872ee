// An index file damaged on disk, met while serving: a page SQLite reads as malformed (the file still opens, so the
// start's check, main/data-dir.ts, let it through). The index is a projection of the vault and the episode journal,
// so the gateway has main rebuild it (a reindex: built beside the damaged file, then swapped in) and answers
// `index_damaged` meanwhile — where every search, tool call and status answered `internal` until someone ran reindex.
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { rebuildOnce, type Rebuild } from '../store-writer/damage-rebuild.js';
import { isDamagedIndex } from '../store-writer/damaged-index.js';

export interface IndexDamage {
  /** For an error that says the index file is damaged: the failure to answer (its rebuild started); else null. */
  check(err: unknown): { reason: 'index_damaged'; message: string } | null;
}

export function indexDamage(rebuild: Rebuild, log: EventLogger): IndexDamage {
  const ask = rebuildOnce(rebuild, log);
  return {
    check(err) {
      if (!isDamagedIndex(err)) return null;
      const why = (err as Error).message;
      if (ask())
        log.error({ event: 'index_damaged', err: why }, 'the index file is damaged; rebuilding it from the vault and the episode journal');
      return {
        reason: 'index_damaged',
        message: `the index file is damaged (${why}); memvault is rebuilding it from the vault and the episode journal, which are intact — try again once the rebuild is done (a few minutes for a large vault; the log says index_rebuilt)`,
      };
    },
  };
}
