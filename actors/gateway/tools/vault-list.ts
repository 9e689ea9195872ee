// vault_list: the notes and folders under a folder, read from disk with the watcher's own ignore rules, so what
// an agent sees listed is what gets indexed (no hidden folders, no Templates, no non-.md files).
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { makeIgnore } from '../../watcher/scan.js';
import { isInside } from '../../git-writer/vault/paths.js';
import type { ToolDeps } from './deps.js';
import { checkVaultPath, resolveInsideVault } from './read-path.js';
import { toolFail, type ToolOutcome } from './types.js';

/** A listing stops here and says `truncated: true`; narrow the folder to see the rest. */
export const MAX_LIST_ENTRIES = 5_000;

export interface ListResult {
  folder: string;
  recursive: boolean;
  folders: string[];
  notes: Array<{ path: string; mtime_ms: number; size: number }>;
  truncated: boolean;
}

export async function vaultList(d: ToolDeps, args: { folder?: string; recursive?: boolean }): Promise<ToolOutcome<ListResult>> {
  const checked = checkVaultPath(args.folder ?? '', 'folder');
  if (!checked.ok) return checked;
  const folder = checked.result.rel;
  const recursive = args.recursive ?? false;
  const ignore = makeIgnore(d.ignore);
  if (folder !== '' && ignore(folder, true)) return toolFail('not_found', `${folder} is excluded from the vault's notes (watcher.ignore)`);
  const at = await resolveInsideVault(d.vault, folder);
  if (!at.ok) return at;
  const s = await stat(at.result.abs);
  if (!s.isDirectory()) return toolFail('not_found', `${folder} is not a folder`);
  const root = await realpath(d.vault);
  const out: ListResult = { folder, recursive, folders: [], notes: [], truncated: false };
  const full = () => out.folders.length + out.notes.length >= MAX_LIST_ENTRIES;

  async function walk(dirRel: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(path.join(d.vault, ...dirRel.split('/').filter(Boolean)), { withFileTypes: true });
    } catch {
      return; // removed or unreadable mid-walk
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (full()) {
        out.truncated = true;
        return;
      }
      if (e.name.startsWith('.')) continue;
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ignore(rel, true)) continue;
        out.folders.push(rel);
        if (recursive) await walk(rel);
        continue;
      }
      if (ignore(rel, false)) continue;
      const abs = path.join(d.vault, ...rel.split('/'));
      try {
        if (e.isSymbolicLink()) {
          // like the watcher: a symlinked file counts when it stays inside the vault; a symlinked folder is not followed
          const real = await realpath(abs);
          if (!isInside(root, real)) continue;
        }
        const st = e.isSymbolicLink() ? await stat(abs) : await lstat(abs);
        if (!st.isFile()) continue;
        out.notes.push({ path: rel, mtime_ms: st.mtimeMs, size: st.size });
      } catch {}
    }
  }
  await walk(folder);
  out.folders.sort();
  out.notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, result: out };
}
