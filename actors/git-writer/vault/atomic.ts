// Crash-safe file operations: a note on disk is always either its old bytes or its new bytes, never a torn mix.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fstatSync, fsync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fail, type Result } from '../../../messages/common.js';

const TEMP_NAME_BYTES = 200; // leaves room for `.` + `.<12 hex>.tmp` under the 255-byte name limit
const TEMP_HEX_BYTES = 6;
/** The name atomicWriteFile gives its temp files: `.<note name>.<12 hex>.tmp`. */
export const TEMP_FILE = /^\..+\.[0-9a-f]{12}\.tmp$/;

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** Whether anything (a file, folder or symlink) is at `p`; errors other than "not there" are real errors. */
async function present(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}

const fsyncFd = promisify(fsync);
/** Bytes up to this are written to the temp file with one synchronous call; more go through the thread pool. */
const SYNC_WRITE_MAX = 64 * 1024;

/** Makes a folder's entries (a rename, a new or removed name) durable, not just the file contents. */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there; NTFS journals names
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * syncDir with the open and close done in place: only the fsync waits in the thread pool. A write's file calls other
 * than its fsyncs take microseconds each, less than a hop through the pool (~0.1–0.3 ms each on a loaded machine).
 */
async function syncDirFd(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** ensureDir with synchronous calls: nothing to do for a folder that exists (the usual case). */
async function ensureDirFast(dir: string): Promise<void> {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  for (let d = dir; ; d = path.dirname(d)) {
    await syncDirFd(path.dirname(d));
    if (d === first || path.dirname(d) === d) break;
  }
}

/** Creates `dir` and any missing parents, then syncs each new folder's parent so the new names survive a crash. */
async function ensureDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let d = dir; ; d = path.dirname(d)) {
    await syncDir(path.dirname(d));
    if (d === first || path.dirname(d) === d) break;
  }
}

/** `name` cut to at most `max` UTF-8 bytes on a code-point boundary. */
function truncateUtf8(name: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of name) {
    bytes += Buffer.byteLength(ch, 'utf8');
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/**
 * Writes `data` to `abs` atomically: a temp file `.<name>.<random>.tmp` in the same folder (so the rename never
 * crosses file systems), written and fsynced, renamed over the target, then the folder fsynced. Missing parent
 * folders are created — the caller must have validated the path. An existing note keeps its permission bits.
 * Because the rename replaces the directory entry, a hard link elsewhere to the old note is never written through.
 * `beforeRename` is awaited once the temp file is durable and before the note changes (the git writer's intent
 * journal syncs meanwhile). On any error the temp file is removed and the error rethrown.
 */
export async function atomicWriteFile(
  abs: string,
  data: Buffer | string,
  beforeRename?: () => Promise<void>,
  /** Given: the folder's fsync is handed over instead of awaited (the git writer overlaps it with the commit). */
  folderSync?: (synced: Promise<void>) => void,
): Promise<{ mtimeMs: number; size: number }> {
  // the file calls run in place and only the fsyncs (and a big write) in the thread pool: see syncDirFd
  const dir = path.dirname(abs);
  await ensureDirFast(dir);
  const tmp = path.join(dir, `.${truncateUtf8(path.basename(abs), TEMP_NAME_BYTES)}.${randomBytes(TEMP_HEX_BYTES).toString('hex')}.tmp`);
  const previous = statSync(abs, { throwIfNoEntry: false }) ?? null;
  let fd: number | undefined;
  let written: { mtimeMs: number; size: number };
  try {
    fd = openSync(tmp, 'wx', 0o644); // O_EXCL: never reuse or follow something already at that name
    if (previous) fchmodSync(fd, previous.mode & 0o7777);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length <= SYNC_WRITE_MAX) for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    else await writeFile(tmp, bytes, { flag: 'r+' });
    await fsyncFd(fd);
    const st = fstatSync(fd);
    written = { mtimeMs: st.mtimeMs, size: st.size };
    closeSync(fd);
    fd = undefined;
    await beforeRename?.();
    renameSync(tmp, abs);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* the original error is the one worth reporting */
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* not made, or gone */
    }
    throw err;
  }
  if (folderSync) folderSync(syncDirFd(dir));
  else await syncDirFd(dir);
  return written;
}

/** Removes a note and syncs its folder. */
export async function removeFile(abs: string): Promise<Result<Record<never, never>, 'missing'>> {
  try {
    await unlink(abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return fail('missing', `'${path.basename(abs)}' does not exist; nothing to delete`);
    throw err;
  }
  await syncDir(path.dirname(abs));
  return { ok: true };
}

/**
 * Renames `from` to `to`, creating `to`'s folders, and syncs both folders. Refuses to replace an existing `to`
 * (`rename` would silently overwrite it). The existence check and the rename are two steps: callers serialise
 * mutations, so only an editor outside memvault could slip a file in between.
 */
export async function moveFile(from: string, to: string): Promise<Result<Record<never, never>, 'exists' | 'missing'>> {
  if (await present(to)) return fail('exists', `'${path.basename(to)}' already exists; move to a new name or delete it first`);
  if (!(await present(from))) return fail('missing', `'${path.basename(from)}' does not exist; nothing to move`);
  await ensureDir(path.dirname(to));
  await rename(from, to);
  await syncDir(path.dirname(from));
  if (path.dirname(from) !== path.dirname(to)) await syncDir(path.dirname(to));
  return { ok: true };
}

/**
 * Removes the temp files of atomic writes that a crash (kill -9, power cut) cut short: each is a write that never
 * happened — the note kept its old bytes — so the file is only litter that git would report as untracked. Call it
 * before any write starts. Walks `root` without following symlinked folders, skipping `skip` (e.g. `.git`).
 */
export async function removeStaleTemps(root: string, skip: readonly string[] = ['.git']): Promise<string[]> {
  const removed: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(rel === '' ? root : path.join(root, rel), { withFileTypes: true });
    } catch {
      return; // a folder removed meanwhile, or unreadable: nothing of ours to clean there
    }
    for (const e of entries) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!skip.includes(r)) await walk(r);
      } else if (e.isFile() && TEMP_FILE.test(e.name)) {
        await rm(path.join(root, r), { force: true });
        removed.push(r);
      }
    }
  }
  await walk('');
  const dirs = new Set(removed.map((r) => path.dirname(path.join(root, r))));
  for (const d of dirs) await syncDir(d);
  return removed;
}
