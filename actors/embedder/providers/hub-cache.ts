// The on-disk side of hub models: one folder per repository and revision under <data dir>/models, a manifest of
// what was downloaded (size and sha256 per file, checked on every load), and the lock that lets only one loader in
// any thread or process download a folder while the others wait for it.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { open, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { z } from 'zod';
import { type LockState, lockState } from './hub-paths.js';

export const MANIFEST = 'manifest.json';
const FileEntry = z.object({
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  etag: z.string().nullable(),
});
const Manifest = z.object({
  format: z.literal(1),
  repo: z.string(),
  revision: z.string(),
  commit: z.string().nullable(),
  hub_url: z.string(),
  model_file: z.string(),
  files: z.record(FileEntry),
  /** Optional files the repository does not have (404), so a later load does not ask again. */
  absent: z.array(z.string()),
  downloaded_at: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;
export type ManifestFile = z.infer<typeof FileEntry>;

export function readManifest(dir: string): Manifest | null {
  try {
    const r = Manifest.safeParse(JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Written last, atomically: a folder with a manifest holds a whole model. */
export async function writeManifest(dir: string, m: Manifest): Promise<void> {
  const file = path.join(dir, MANIFEST);
  await writeDurably(`${file}.tmp`, JSON.stringify(m, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  await syncDir(dir);
}

export async function writeDurably(file: string, text: string): Promise<void> {
  const fh = await open(file, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch {
    // some filesystems refuse fsync on a folder; the rename is still atomic
  } finally {
    await fh.close();
  }
}

/** sha256 of a file, streamed (a model is hundreds of MB). */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

/** What a cached file is checked against: the pinned sha256, else the one recorded when it was downloaded. */
export type CacheCheck = { ok: true } | { ok: false; file: string; reason: 'missing' | 'size' | 'sha256'; message: string };

export async function checkCachedFile(dir: string, rel: string, want: ManifestFile): Promise<CacheCheck> {
  const file = path.join(dir, rel);
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return { ok: false, file: rel, reason: 'missing', message: `${rel} is missing from ${dir}` };
  if (st.size !== want.size)
    return {
      ok: false,
      file: rel,
      reason: 'size',
      message: `${rel} is ${st.size} bytes, ${want.size} were downloaded: truncated or replaced`,
    };
  const sha = await sha256File(file);
  if (sha !== want.sha256)
    return {
      ok: false,
      file: rel,
      reason: 'sha256',
      message: `${rel} has sha256 ${sha}, ${want.sha256} was recorded at download: corrupt`,
    };
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------------------
// The folder lock: `<folder>.lock`, created exclusively, its mtime refreshed while the holder works.

const HEARTBEAT_MS = 2_000;
const POLL_MS = 250;

export interface HeldLock {
  /** Records what is being downloaded, for `downloadInProgress` readers (the gateway, `models list`). */
  progress(file: string, done: number, total: number | null): void;
  release(): Promise<void>;
}

/**
 * Takes `<dir>.lock` when it is free (or its holder is gone). When another live loader holds it, waits until that one
 * lets go and resolves null without taking it: what the holder left is then checked without the lock, so loaders
 * that find the finished copy check its files side by side, and the lock (which readers show as "downloading")
 * is only ever held by a download. `onWait` is called with the holder when the lock was busy.
 */
export async function takeLock(dir: string, onWait?: (holder: LockState) => void): Promise<HeldLock | null> {
  const lockFile = `${dir}.lock`;
  let waited = false;
  for (;;) {
    if (!waited) {
      const state: LockState = { pid: process.pid, thread: threadId, file: null, done: 0, total: null };
      try {
        const fh = await open(lockFile, 'wx');
        await fh.writeFile(JSON.stringify(state));
        await fh.close();
        return heldLock(lockFile, state);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const holder = lockState(lockFile);
    if (!holder) {
      if (waited) return null; // let go (or gone): the caller looks at what it left
      // stale: its holder died; whoever unlinks first retries, the others find the new lock
      await unlink(lockFile).catch(() => undefined);
      continue;
    }
    if (!waited) onWait?.(holder);
    waited = true;
    // another thread or process downloads: a lock file offers nothing to await, so look again shortly
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function heldLock(lockFile: string, state: LockState): HeldLock {
  let writing: Promise<unknown> = Promise.resolve();
  const beat = setInterval(() => {
    writing = writing.then(() => writeFile(lockFile, JSON.stringify(state)).catch(() => utimes(lockFile, new Date(), new Date())));
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    progress(file, done, total) {
      state.file = file;
      state.done = done;
      state.total = total;
    },
    async release() {
      clearInterval(beat);
      await writing.catch(() => undefined);
      await unlink(lockFile).catch(() => undefined);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A failed download, remembered briefly so loaders that waited for it report it rather than try again at once.

export interface Failure {
  at: number;
  code: string;
  message: string;
}

export async function recordFailure(dir: string, f: Failure): Promise<void> {
  await writeFile(`${dir}.failed.json`, JSON.stringify(f)).catch(() => undefined);
}

export async function readFailure(dir: string): Promise<Failure | null> {
  try {
    return JSON.parse(await readFile(`${dir}.failed.json`, 'utf8')) as Failure;
  } catch {
    return null;
  }
}

export async function clearFailure(dir: string): Promise<void> {
  await unlink(`${dir}.failed.json`).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------------------------
// Listing (memvault models list)

export interface CachedModel {
  folder: string;
  dir: string;
  manifest: Manifest | null;
  bytes: number;
  /** Someone is downloading into it now. */
  downloading: LockState | null;
}

/** Every hub model folder under `modelsDir`, complete or not, with its size on disk. */
export function listHubModels(modelsDir: string): CachedModel[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.includes('--') && e.name.includes('@'))
    .map((e) => {
      const dir = path.join(modelsDir, e.name);
      return { folder: e.name, dir, manifest: readManifest(dir), bytes: folderBytes(dir), downloading: lockState(`${dir}.lock`) };
    })
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

function folderBytes(dir: string): number {
  let sum = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) sum += statSync(path.join(e.parentPath, e.name)).size;
  }
  return sum;
}
