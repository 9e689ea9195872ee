// A data dir on its own small tmpfs (we run as root), with the embedding model symlinked in from a shared cache,
// so a chaos test can fill that file system for real. Mount failures throw with a clear message: never a skip.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureUseLiteModelFile } from '../../../actors/embedder/use-lite/build-onnx.js';
import { makeVault, startDaemon, testConfig, type Running, type TestVault } from '../../helpers/daemon.js';
import { fillDisk } from './fill-disk.js';

const SHARED_MODELS = path.join(os.tmpdir(), 'memvault-chaos-models');

function run(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: 'pipe' });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`\`${cmd} ${args.join(' ')}\` failed: ${e.stderr?.toString().trim() || e.message} (these tests need root and mount)`);
  }
}

export interface TmpfsDataDir {
  dir: string;
  /** Writes a filler file until the file system refuses with ENOSPC; returns the bytes written. */
  fill(): number;
  /** Deletes the filler. */
  free(): void;
  /**
   * Makes the data dir read-only for every file opened from now on: a read-only bind mount over it. (A plain
   * `mount -o remount,ro` is refused with EBUSY while the daemon holds the index open for writing.)
   */
  readOnly(): void;
  /** Detaches the read-only bind mount (lazily: the daemon may hold files open through it). */
  writable(): void;
  umount(): void;
}

/** Mounts a `sizeMiB` tmpfs at `dir` (created if missing) and links `<dir>/models` to a prepared model cache. */
export async function tmpfsDataDir(dir: string, sizeMiB = 64): Promise<TmpfsDataDir> {
  await ensureUseLiteModelFile(SHARED_MODELS); // built once per machine, outside the small file system
  mkdirSync(dir, { recursive: true });
  run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir]);
  symlinkSync(SHARED_MODELS, path.join(dir, 'models'));
  const filler = path.join(dir, 'filler.bin');
  let mounted = true;
  let overlaid = false;
  const fs: TmpfsDataDir = {
    dir,
    fill: () => fillDisk(filler),
    free() {
      unlinkSync(filler);
    },
    readOnly() {
      run('mount', ['--bind', dir, dir]);
      overlaid = true;
      run('mount', ['-o', 'remount,bind,ro', dir]);
    },
    writable() {
      if (!overlaid) return;
      overlaid = false;
      run('umount', ['--lazy', dir]); // files opened through it stay read-only; new opens are writable again
    },
    umount() {
      fs.writable();
      if (!mounted) return;
      mounted = false;
      run('umount', [dir]);
    },
  };
  return fs;
}

/**
 * A daemon (log level warn) on a vault of `files` whose data dir is a tmpfs; stopped, unmounted and removed when
 * the test ends.
 */
export async function tmpfsDaemon(
  t: { teardown(fn: () => unknown): void },
  files: Record<string, string>,
  yaml: string,
): Promise<{ v: TestVault; data: TmpfsDataDir; d: Running }> {
  const v = makeVault(files);
  const data = await tmpfsDataDir(path.join(path.dirname(v.dir), 'data'));
  let d: Running | undefined;
  t.teardown(async () => {
    try {
      await d?.stop();
    } finally {
      data.umount(); // a mount left behind would outlive the test run
      v.cleanup();
    }
  });
  d = await startDaemon(testConfig(v.dir, yaml, { logLevel: 'warn' }));
  return { v, data, d };
}
