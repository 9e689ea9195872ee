// Rebuilds the index into a new file with the configured model, then swaps it in with one rename; the old file
// keeps serving until then. In a running daemon the store writer does the swap (store.swap_index, a request).
import { rmSync } from 'node:fs';
import type { Config } from '../config/load.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import { indexFile } from '../supervisors/runtime/boot.js';
import { openIndex } from '../actors/store-writer/schema.js';
import { swapIndexFiles } from '../actors/store-writer/swap.js';

/** Indexes the vault once into `file` with a one-shot pipeline (main/daemon.ts `indexOnce`). */
export type IndexOnce = (file: string) => Promise<void>;

export function nextIndexFile(cfg: Config): string {
  return indexFile(cfg).replace(/\.sqlite$/, '.next.sqlite');
}

/** Removes a database file with its WAL and shared-memory companions. */
export function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/** Builds `<data dir>/index.next.sqlite` from the vault with a one-shot pipeline; returns its path. */
export async function buildNextIndex(cfg: Config, indexOnce: IndexOnce): Promise<{ file: string; documents: number; ms: number }> {
  const started = performance.now(); // a duration: monotonic, so a clock jump mid-build cannot make it negative
  const file = nextIndexFile(cfg);
  removeDbFiles(file); // a half-built file from an interrupted reindex is never trusted
  await indexOnce(file);
  const db = openIndex(file, { readonly: false });
  db.pragma('wal_checkpoint(TRUNCATE)');
  const documents = (db.prepare('SELECT count(*) n FROM memory_documents WHERE deleted_at IS NULL').get() as { n: number }).n;
  db.close();
  return { file, documents, ms: Math.round(performance.now() - started) };
}

/** Offline reindex: no daemon runs, so the CLI swaps the files itself. */
export async function rebuildIndex(cfg: Config, log: EventLogger, indexOnce: IndexOnce): Promise<{ documents: number; ms: number }> {
  const built = await buildNextIndex(cfg, indexOnce);
  swapIndexFiles(built.file, indexFile(cfg));
  log.event('index_swapped', { documents: built.documents, ms: built.ms });
  return { documents: built.documents, ms: built.ms };
}
