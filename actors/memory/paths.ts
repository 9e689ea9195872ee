// Where the fact log lives in the vault (`memory.folder`, default `Memory`): the day logs, the tombstones, and the
// paths reserved for the memory tools. The watcher, main's OS watch, the git writer and the gateway all ask here.

const DAY_LOG = /^\d{4}-\d{2}-\d{2}\.md$/;

export interface MemoryPaths {
  /** e.g. `Memory` */
  folder: string;
  /** e.g. `Memory/Log` */
  logFolder: string;
  /** e.g. `Memory/tombstones.jsonl` */
  tombstones: string;
  /** e.g. `Memory/log.md` (reserved for consolidation) */
  logNote: string;
  /** The day log of `date` (YYYY-MM-DD). */
  dayLog(date: string): string;
  /** `Memory/Log/YYYY-MM-DD.md`: a day log the memory actor indexes fact by fact (the watcher leaves it alone). */
  isDayLog(rel: string): boolean;
  /** The date of a day log path, or null. */
  dateOf(rel: string): string | null;
  /** A day log or the tombstones file: changes go to the memory actor. */
  isMemoryFile(rel: string): boolean;
  /** Paths agents may not write, delete or move through vault_write (only memory_remember/forget append there). */
  isReserved(rel: string): boolean;
}

export function memoryPaths(folder: string): MemoryPaths {
  const logFolder = `${folder}/Log`;
  const tombstones = `${folder}/tombstones.jsonl`;
  const logNote = `${folder}/log.md`;
  // compared lower-cased: on a case-insensitive disk `memory/log/x.md` is the same file
  const lower = (p: string) => p.normalize('NFC').toLowerCase();
  const logPrefix = `${lower(logFolder)}/`;
  const dateOf = (rel: string): string | null => {
    if (!rel.startsWith(`${logFolder}/`)) return null;
    const name = rel.slice(logFolder.length + 1);
    return DAY_LOG.test(name) ? name.slice(0, 10) : null;
  };
  return {
    folder,
    logFolder,
    tombstones,
    logNote,
    dayLog: (date) => `${logFolder}/${date}.md`,
    isDayLog: (rel) => dateOf(rel) !== null,
    dateOf,
    isMemoryFile: (rel) => dateOf(rel) !== null || rel === tombstones,
    isReserved: (rel) => {
      const l = lower(rel);
      return l.startsWith(logPrefix) || l === lower(logFolder) || l === lower(tombstones) || l === lower(logNote);
    },
  };
}

/** The watcher's extra ignore glob: day logs are indexed fact by fact by the memory actor, not as notes. */
export function dayLogGlob(folder: string): string {
  return `${folder}/Log/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md`;
}
