// An index file SQLite cannot read, met by a command working without a daemon: one line with the stable reason
// `index_damaged` and what mends it, where it was a SqliteError's stack.
import path from 'node:path';
import { isDamagedIndex } from '../actors/store-writer/damaged-index.js';
import { CommandFailure } from './args.js';

/** What a command says of the damaged index `file` (main/data-dir.ts is what moves it aside at a start). */
export function indexDamagedLine(file: string, err: unknown): string {
  const why = (err as Error)?.message ?? String(err);
  return `index_damaged: the index file ${file} cannot be read (${why}) — the daemon moves it aside as ${path.basename(file)}.damaged-<ms> and rebuilds it at its next start (memvault start), or \`memvault reindex\` rebuilds it now`;
}

/** What doctor says of an index `file` that opens but whose pages SQLite's quick_check finds damaged (`problems`). */
export function damagedPagesLine(file: string, problems: string[]): string {
  return `index_damaged: the index file ${file} has damaged pages (${problems.join('; ')}) — a running daemon rebuilds it when a read or a write meets them, \`memvault reindex\` rebuilds it now from the vault and the episode journal`;
}

/** Runs `open` on the index `file`; a file SQLite cannot read becomes a CommandFailure saying so, anything else is thrown. */
export function openingIndex<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (err) {
    if (isDamagedIndex(err)) throw new CommandFailure(indexDamagedLine(file, err));
    throw err;
  }
}
