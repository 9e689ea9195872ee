// Which files the git writer commits as the person: every markdown note that is not hidden, as the first import took
// them. `watcher.ignore` keeps notes out of the index, not out of history: with it here (and on the OS
// subscription), Templates/Daily.md was imported and a person's later edit of it never committed (git status never
// clean again).
import path from 'node:path';
import { makeIgnore, type IgnoreMatcher } from '../watcher/scan.js';

/** The data dir's vault-relative path when it is inside the vault, else null. */
function stateRel(vault: string, dataDir: string): string | null {
  const rel = path.relative(vault, dataDir);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
}

/** True for paths that are not the person's notes to commit: hidden names, non-notes, and the data dir when inside the vault. */
export function notPersonsNote(vault: string, dataDir: string): IgnoreMatcher {
  const hiddenOrNotNote = makeIgnore([]);
  const state = stateRel(vault, dataDir);
  return (p, isDir) => hiddenOrNotNote(p, isDir) || (state !== null && (p === state || p.startsWith(`${state}/`)));
}

/**
 * What main's OS subscription may skip: the configured globs of hidden folders (`.git/**` above all: every commit
 * writes there) and the data dir inside the vault (every index write). Other ignored folders stay watched: the
 * watcher drops their events, so their notes are not indexed, but the git writer commits a person's edits of them.
 */
export function subscriptionIgnore(globs: readonly string[], vault: string, dataDir: string): string[] {
  const hidden = globs.filter((g) => g.startsWith('.'));
  const state = stateRel(vault, dataDir);
  return state === null || hidden.includes(`${state}/**`) ? hidden : [...hidden, `${state}/**`];
}
