// The covered set on disk, `<data dir>/dream/covered.json`, written by the dream after each consolidated run and
// read by every search (cached by mtime): as JSON for the filter, `{ factId: [page, contentHash] }`. Written
// atomically; a missing or damaged file hides nothing — a fact is never lost from search by accident.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { CoveredEntry } from './coverage.js';

export function coveredPath(dataDir: string): string {
  return path.join(dataDir, 'dream', 'covered.json');
}

export function loadCovered(file: string): CoveredEntry[] {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { entries?: CoveredEntry[] };
    return Array.isArray(raw.entries)
      ? raw.entries.filter((e) => typeof e?.id === 'string' && typeof e.page === 'string' && typeof e.hash === 'string')
      : [];
  } catch {
    return [];
  }
}

export function saveCovered(file: string, entries: readonly CoveredEntry[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify({ version: 1, entries })}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** The filter's parameter for `file`, re-read when its mtime changes; null when nothing is covered. */
export function coveredFilter(file: string): () => string | null {
  let seen = -1;
  let json: string | null = null;
  return () => {
    let m: number;
    try {
      m = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    if (m !== seen) {
      seen = m;
      const entries = loadCovered(file);
      json = entries.length ? JSON.stringify(Object.fromEntries(entries.map((e) => [e.id, [e.page, e.hash]]))) : null;
    }
    return json;
  };
}
