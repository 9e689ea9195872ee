// Walks the vault for notes, pruning ignored folders and never following symlinked folders (no loops, no escapes).
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { vaultPath, type VaultPath } from '../../messages/common.js';

export type IgnoreMatcher = (rel: string, isDir: boolean) => boolean;

/** True for paths the watcher must not index: configured globs, and anything that is not a `.md` file. */
export function makeIgnore(globs: string[]): IgnoreMatcher {
  const match = picomatch(globs, { dot: true });
  // a folder is ignored when a glob like `.git/**` matches something inside it
  const dirGlobs = globs.filter((g) => g.endsWith('/**')).map((g) => g.slice(0, -3));
  const dirMatch = picomatch(dirGlobs.length ? dirGlobs : ['\0'], { dot: true });
  return (rel, isDir) => {
    if (isDir) return dirMatch(rel) || match(rel);
    return match(rel) || !rel.toLowerCase().endsWith('.md');
  };
}

export interface FileStat {
  path: VaultPath;
  mtimeMs: number;
  size: number;
}
export interface ScanProblem {
  path: VaultPath;
  reason: 'symlink_loop' | 'unreadable' | 'not_a_file';
  message: string;
}

/** Every note under root (relative POSIX paths), with stats, plus entries that could not be stat'ed. */
export async function scanVault(root: string, ignore: IgnoreMatcher): Promise<{ files: FileStat[]; problems: ScanProblem[] }> {
  const files: FileStat[] = [];
  const problems: ScanProblem[] = [];
  async function walk(dirRel: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(path.join(root, dirRel), { withFileTypes: true });
    } catch {
      return; // a folder removed or unreadable mid-walk: its notes show up as missing and are handled as deletes
    }
    for (const e of entries) {
      const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!ignore(rel, true)) await walk(rel);
        continue;
      }
      if (ignore(rel, false)) continue;
      const p = vaultPath(rel);
      try {
        const s = await stat(path.join(root, rel));
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
          message: `${code ?? 'error'}: ${(err as Error).message}`,
        });
      }
    }
  }
  await walk('');
  return { files, problems };
}

export type StatResult = { kind: 'file'; mtimeMs: number; size: number } | { kind: 'missing' } | { kind: 'other' } | { kind: 'error'; reason: 'symlink_loop' | 'unreadable'; message: string };

export async function statNote(root: string, rel: string): Promise<StatResult> {
  try {
    const s = await stat(path.join(root, rel));
    return s.isFile() ? { kind: 'file', mtimeMs: s.mtimeMs, size: s.size } : { kind: 'other' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', reason: code === 'ELOOP' ? 'symlink_loop' : 'unreadable', message: `${code ?? 'error'}: ${(err as Error).message}` };
  }
}

export async function hashFile(root: string, rel: string): Promise<string | null> {
  try {
    return createHash('sha256').update(await readFile(path.join(root, rel))).digest('hex');
  } catch {
    return null;
  }
}
