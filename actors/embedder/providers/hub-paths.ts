// The names of hub models' folders and the state of their download lock, without the manifest's zod schemas: the
// embedder, memory and chunker threads look these up at start and need no more of the cache (hub-cache.ts).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../../../supervisors/runtime/pid-alive.js';

/** What to fetch: a repository on a hub with Hugging Face's file layout, at a revision. */
export interface HubSpec {
  /** `<org>/<name>`. */
  repo: string;
  /** Branch, tag or commit; default `main`. */
  revision: string;
  /** The ONNX file's path in the repository; null: `onnx/model.onnx`, else `model.onnx`. */
  file: string | null;
  /** Pinned sha256 per repository path (hex). */
  sha256: Record<string, string>;
  /** Pinned sha256 of the ONNX file, whichever path it resolves to (config's `sha256: <hex>`). */
  modelSha256: string | null;
  /** The hub or a mirror, e.g. `https://huggingface.co`. */
  hubUrl: string;
  /** `<data dir>/models`. */
  modelsDir: string;
}

/** A holder that has not refreshed its lock for this long is gone (a killed process or thread). */
export const LOCK_STALE_MS = 30_000;

/** `<org>--<name>@<revision>`, as the issue names it; a revision's slashes (`refs/pr/1`) become `--`. */
export function hubFolderName(repo: string, revision: string): string {
  return `${repo.replace('/', '--')}@${revision.replaceAll('/', '--')}`;
}

export function hubModelDir(spec: Pick<HubSpec, 'repo' | 'revision' | 'modelsDir'>): string {
  return path.join(spec.modelsDir, hubFolderName(spec.repo, spec.revision));
}

export interface LockState {
  pid: number;
  thread: number;
  file: string | null;
  done: number;
  total: number | null;
}

/** The lock's holder and progress while it is held and fresh; null when no one is downloading this folder. */
export function lockState(lockFile: string, now = Date.now()): LockState | null {
  try {
    const st = statSync(lockFile);
    const s = JSON.parse(readFileSync(lockFile, 'utf8')) as LockState;
    if (now - st.mtimeMs > LOCK_STALE_MS || (s.pid !== process.pid && !pidAlive(s.pid))) return null;
    return s;
  } catch {
    return existsSync(lockFile) ? { pid: 0, thread: 0, file: null, done: 0, total: null } : null; // being written
  }
}
