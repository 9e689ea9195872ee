// Walks the vault for notes, pruning ignored folders and never following symlinked folders (no loops, no escapes).
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { vaultPath, type VaultPath } from '../../messages/common.js';
import { sha256Hex } from '../../messages/hash.js';

export type IgnoreMatcher = (rel: string, isDir: boolean) => boolean;

/** True for paths the watcher must not index: configured globs, hidden names (`.x`), and anything that is not a `.md` file. */
export function makeIgnore(globs: string[]): IgnoreMatcher {
  const match = picomatch(globs, { dot: true });
  // a folder is ignored when a glob like `.git/**` matches something inside it
  const dirGlobs = globs.filter((g) => g.endsWith('/**')).map((g) => g.slice(0, -3));
  const dirMatch = picomatch(dirGlobs.length ? dirGlobs : ['\0'], { dot: true });
  return (rel, isDir) => {
    // hidden, as in Obsidian: a name starting with '.' anywhere on the path (agents may not read or write such notes)
    if (rel.split('/').some((seg) => seg.startsWith('.'))) return true;
    if (isDir) return dirMatch(rel) || match(rel);
    return match(rel) || !rel.toLowerCase().endsWith('.md');
  };
}

export interface FileStat {
  path: VaultPath;
  mtimeMs: number;
  size: number;
}
/**
 * Why a note's on-disk name cannot be indexed, or null. Paths are keyed NFC with `/` separators (vaultPath), so a
 * name in another normal form or with a backslash would be looked up under a name that does not exist on disk —
 * silently never indexed; it is reported instead.
 */
export function unsupportedName(rel: string): string | null {
  if (rel.includes('\\')) return "the name holds a backslash, which memvault reads as a folder separator; rename the file without '\\'";
  if (rel !== rel.normalize('NFC'))
    return 'the name is not in Unicode normal form C (NFC), so memvault cannot key it; rename the file (most editors save names in NFC)';
  return null;
}

export interface ScanProblem {
  path: VaultPath;
  reason: 'symlink_loop' | 'unreadable' | 'not_a_file' | 'outside_vault' | 'unsupported_name';
  message: string;
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export type NoteLocation = { kind: 'inside'; real: string } | { kind: 'outside'; message: string } | { kind: 'via_symlinked_folder' };

/**
 * Where the note at `rel` really is. A symlinked note is followed only while its target stays inside the vault (a
 * link to `~/.ssh/id_rsa.md` or `/etc/passwd` must never reach the index); a path through a symlinked folder is not
 * a note at all, as in the scan, which never walks into one. Errors of `realpath` (ENOENT, ELOOP, …) are thrown.
 */
export async function locateNote(root: string, rel: string): Promise<NoteLocation> {
  const abs = path.join(root, ...rel.split('/'));
  const [realRoot, real, realParent] = await Promise.all([realpath(root), realpath(abs), realpath(path.dirname(abs))]);
  const dir = path.posix.dirname(rel);
  if (realParent !== (dir === '.' ? realRoot : path.join(realRoot, ...dir.split('/')))) {
    return isInside(realRoot, real)
      ? { kind: 'via_symlinked_folder' }
      : { kind: 'outside', message: `'${rel}' leads to '${real}', outside the vault, through a symlinked folder; it is not read` };
  }
  if (!isInside(realRoot, real))
    return { kind: 'outside', message: `'${rel}' is a symlink to '${real}', outside the vault; it is not read` };
  return { kind: 'inside', real };
}

/**
 * Every note under root (relative POSIX paths), with stats, plus entries that could not be stat'ed. Synchronous on
 * purpose: it runs on the watcher's own thread (and in CLI commands and tests), where a blocking readdir or stat
 * costs a few µs against ~50 µs for each promise round trip through libuv's pool: 4,612 notes in ~20 ms instead of
 * ~250 ms, the biggest part of a restart's boot reconcile. Never call it on the daemon's main thread.
 */
export function scanVault(root: string, ignore: IgnoreMatcher): { files: FileStat[]; problems: ScanProblem[] } {
  const files: FileStat[] = [];
  const problems: ScanProblem[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { files, problems }; // no vault folder (removed, or an event for a folder already gone): nothing in it
  }
  function walk(dirRel: string): void {
    let entries;
    try {
      entries = readdirSync(path.join(root, dirRel), { withFileTypes: true });
    } catch {
      return; // a folder removed or unreadable mid-walk: its notes show up as missing and are handled as deletes
    }
    for (const e of entries) {
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!ignore(rel, true)) walk(rel);
        continue;
      }
      if (ignore(rel, false)) continue;
      const p = vaultPath(rel);
      const odd = unsupportedName(rel);
      if (odd !== null) {
        problems.push({ path: p, reason: 'unsupported_name', message: odd });
        continue;
      }
      try {
        if (e.isSymbolicLink()) {
          const real = realpathSync(path.join(root, rel));
          if (!isInside(realRoot, real)) {
            problems.push({ path: p, reason: 'outside_vault', message: `symlink to '${real}', outside the vault; it is not read` });
            continue;
          }
        }
        const s = statSync(path.join(root, rel));
        if (!s.isFile()) {
          if (!s.isDirectory()) problems.push({ path: p, reason: 'not_a_file', message: 'not a regular file' });
          continue; // a symlink to a folder is not followed
        }
        files.push({ path: p, mtimeMs: s.mtimeMs, size: s.size });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue; // dangling symlink or deleted mid-walk: not a note
        problems.push({
          path: p,
          reason: code === 'ELOOP' ? 'symlink_loop' : 'unreadable',
          message: (err as Error).message, // Node's own names the code: `ELOOP: too many symbolic links …`
        });
      }
    }
  }
  walk('');
  return { files, problems };
}

/** `rel` is a folder itself, not a symlink to one (symlinked folders are never followed). */
export async function isRealFolder(root: string, rel: string): Promise<boolean> {
  try {
    return (await lstat(path.join(root, ...rel.split('/')))).isDirectory();
  } catch {
    return false;
  }
}

export type StatResult =
  | { kind: 'file'; mtimeMs: number; size: number }
  | { kind: 'missing' }
  | { kind: 'other' }
  | { kind: 'error'; reason: 'symlink_loop' | 'unreadable' | 'outside_vault'; message: string };

export async function statNote(root: string, rel: string): Promise<StatResult> {
  try {
    const at = await locateNote(root, rel);
    if (at.kind === 'outside') return { kind: 'error', reason: 'outside_vault', message: at.message };
    if (at.kind === 'via_symlinked_folder') return { kind: 'other' };
    const s = await stat(at.real);
    return s.isFile() ? { kind: 'file', mtimeMs: s.mtimeMs, size: s.size } : { kind: 'other' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return {
      kind: 'error',
      reason: code === 'ELOOP' ? 'symlink_loop' : 'unreadable',
      message: (err as Error).message, // Node's own names the code: `ELOOP: too many symbolic links …`
    };
  }
}

export async function hashFile(root: string, rel: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(path.join(root, rel)));
  } catch {
    return null;
  }
}
