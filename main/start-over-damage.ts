// A start that an actor's init fails with a damaged page of the index file (the file opens, so main/data-dir.ts let
// it through; the watcher's first read of its documents does not): the start is made again once over a fresh index,
// the damaged one kept aside, and the daemon rebuilds it from the vault and the episode journal — where `memvault
// start` stopped with "watcher failed (SQLITE_CORRUPT)" until someone ran reindex.
import type { Config } from '../config/load.js';
import { isDamagedIndex } from '../actors/store-writer/damaged-index.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import { indexFile } from '../supervisors/runtime/boot.js';
import type { Daemon } from './daemon.js';
import { setAsideIndex } from './data-dir.js';
import { DaemonStartFailure } from './start-failure.js';

/** Starts the daemon `make` builds; over a damaged index, once more with a fresh one. Answers the daemon that runs. */
export async function startOverDamage(cfg: Config, log: EventLogger, make: () => Daemon): Promise<Daemon> {
  const first = make();
  try {
    await first.start();
    return first;
  } catch (err) {
    if (!(err instanceof DaemonStartFailure) || !isDamagedIndex({ code: err.reason })) throw err;
    const kept = setAsideIndex(indexFile(cfg));
    log.warn(
      { event: 'index_file_damaged', kept_as: kept, child: err.child, err: err.message },
      `the index file has a damaged page (kept as ${kept}); starting over a new one, rebuilt from the vault and the episode journal`,
    );
  }
  const again = make();
  await again.start();
  return again;
}
