// Rebuilds the index into a new file with the configured model, then swaps it in with one rename; the old file
// keeps serving until then. In a running daemon the store writer does the swap (store.swap_index, a request).
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/load.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import { indexFile } from '../supervisors/runtime/boot.js';
import { openIndex } from '../actors/store-writer/schema.js';
import { swapIndexFiles } from '../actors/store-writer/swap.js';
import { claimFile } from './pid-claim.js';

/** Indexes the vault once into `file` with a one-shot pipeline (main/daemon.ts `indexOnce`). */
export type IndexOnce = (file: string) => Promise<void>;

export function nextIndexFile(cfg: Config): string {
  return indexFile(cfg).replace(/\.sqlite$/, '.next.sqlite');
}

/** The claim (main/pid-claim.ts) a reindex holds on index.next.sqlite from its build until its swap. */
export function nextIndexClaimFile(cfg: Config): string {
  return path.join(cfg.data_dir, 'index.next.owner');
}

/** Another live process is building index.next.sqlite: a second build would delete the file under it. */
export class ReindexRunning extends Error {
  readonly code = 'reindex_running';
}

/** Removes a database file with its WAL and shared-memory companions. */
export function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/** Runs `work` (a build and its swap) holding the claim on index.next.sqlite. */
export async function holdingNextIndex<T>(cfg: Config, work: () => Promise<T>): Promise<T> {
  const claim = claimFile(nextIndexClaimFile(cfg));
  if (!('release' in claim))
    throw new ReindexRunning(
      `reindex_running: ${'heldBy' in claim ? `a reindex (pid ${claim.heldBy})` : 'another reindex'} is building ${nextIndexFile(cfg)}; wait for it to finish`,
    );
  try {
    return await work();
  } finally {
    claim.release();
  }
}

/** Removes index.next.sqlite and its WAL left by a reindex that did not finish, saying which files went; the caller holds the claim. */
function removeLeftover(cfg: Config, log: EventLogger): void {
  const file = nextIndexFile(cfg);
  const present = [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f));
  if (present.length === 0) return;
  removeDbFiles(file);
  log.warn(
    { event: 'index_next_removed', files: present },
    `removed ${present.map((f) => path.basename(f)).join(', ')}, left by a reindex that did not finish (killed, or stopped mid-build)`,
  );
}

/**
 * At a daemon's start: an index.next.sqlite no live reindex is building (a `memvault reindex` killed mid-build, a
 * daemon killed during its reindex) is removed, where it stayed, as big as the index, until the next reindex. One a
 * live process holds the claim for (a `memvault reindex` without a daemon, still building) is left alone.
 */
export function removeLeftoverNextIndex(cfg: Config, log: EventLogger): void {
  const file = nextIndexFile(cfg);
  if (![file, `${file}-wal`, `${file}-shm`].some((f) => existsSync(f))) return;
  const claim = claimFile(nextIndexClaimFile(cfg));
  if (!('release' in claim)) {
    log.info(
      { event: 'index_next_kept', file, pid: 'heldBy' in claim ? claim.heldBy : null },
      `${path.basename(file)} is kept: a reindex is building it`,
    );
    return;
  }
  try {
    removeLeftover(cfg, log);
  } finally {
    claim.release();
  }
}

/** Builds `<data dir>/index.next.sqlite` from the vault with a one-shot pipeline; returns its path. Hold the claim (holdingNextIndex). */
export async function buildNextIndex(
  cfg: Config,
  log: EventLogger,
  indexOnce: IndexOnce,
): Promise<{ file: string; documents: number; ms: number }> {
  const started = performance.now(); // a duration: monotonic, so a clock jump mid-build cannot make it negative
  const file = nextIndexFile(cfg);
  removeLeftover(cfg, log); // a half-built file from an interrupted reindex is never trusted
  await indexOnce(file);
  const db = openIndex(file, { readonly: false });
  db.pragma('wal_checkpoint(TRUNCATE)');
  const documents = (db.prepare('SELECT count(*) n FROM memory_documents WHERE deleted_at IS NULL').get() as { n: number }).n;
  db.close();
  return { file, documents, ms: Math.round(performance.now() - started) };
}

/** Offline reindex: no daemon runs, so the CLI swaps the files itself. */
export async function rebuildIndex(cfg: Config, log: EventLogger, indexOnce: IndexOnce): Promise<{ documents: number; ms: number }> {
  return holdingNextIndex(cfg, async () => {
    const built = await buildNextIndex(cfg, log, indexOnce);
    swapIndexFiles(built.file, indexFile(cfg));
    log.event('index_swapped', { documents: built.documents, ms: built.ms });
    return { documents: built.documents, ms: built.ms };
  });
}
