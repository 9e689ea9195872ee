// The notes inside a folder named like a note (`dir.md/`), for the people's-edits path: the OS may report only the
// folder when a person makes it and its notes at once, as the watcher knows (it scans such a folder for the index).
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IgnoreMatcher } from '../watcher/scan.js';

/** Vault-relative paths of the notes under `rel`; none when it is not a real folder (symlinked folders are not followed). */
export function notesUnder(root: string, rel: string, ignore: IgnoreMatcher): string[] {
  let isFolder: boolean;
  try {
    isFolder = lstatSync(path.join(root, rel)).isDirectory();
  } catch {
    return []; // gone, or a file now stands where a folder on its path was (ENOTDIR): no notes under it
  }
  if (!isFolder) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return; // removed or unreadable meanwhile: its notes' own events, or the next start, cover them
    }
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!ignore(p, true)) walk(p);
      } else if (!ignore(p, false)) out.push(p);
    }
  };
  walk(rel);
  return out;
}
