// HEAD read and moved by this process in a `files` ref store, as `git update-ref` does it: `<ref>.lock` (and
// `HEAD.lock`) taken with O_EXCL, the value checked under the lock, the reflog lines appended, the lock renamed over
// the ref. Saves the round trips to `cat-file` and `update-ref` per batch. Anything unusual (a detached or unborn
// HEAD, a symref chain, a reftable store, an identity git cannot make) answers `unusual` and fast-commit.ts uses git.
// The file calls are synchronous: this runs in the spawner process, like loose-objects.ts.
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

export type HeadRead = { kind: 'ok'; ref: string; sha: string } | { kind: 'unusual'; why: string };

export type RefUpdate =
  | { kind: 'done' }
  /** Another git holds `<ref>.lock` or `HEAD.lock`: nothing changed, try again in a moment. */
  | { kind: 'busy'; message: string }
  /** HEAD or its branch is no longer what the batch was built on: nothing changed. */
  | { kind: 'moved'; message: string };

/** The repository's reflog settings and the identity its reflog lines carry. */
export interface RefLogSettings {
  /** core.logAllRefUpdates: `true` creates the reflogs of branches and HEAD, `always` of any ref, `false` none. */
  logAll: boolean | 'always';
  /** `Name <email>`, as `git var GIT_COMMITTER_IDENT` gives it (without its time). */
  ident: string;
}

/** core.logAllRefUpdates as git reads it; unset is true in a repository with a work tree. */
export function parseLogAll(value: string | null): boolean | 'always' {
  if (value === null) return true;
  const v = value.trim().toLowerCase();
  if (v === 'always') return 'always';
  return !['false', 'no', 'off', '0', ''].includes(v);
}

const REF_NAME = /^refs\/[^\0\s~^:?*[\\]+$/;

function tz(d: Date): string {
  const off = -d.getTimezoneOffset();
  const a = Math.abs(off);
  return `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${String(a % 60).padStart(2, '0')}`;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

export class RefFiles {
  readonly #hex: RegExp;

  /** `gitDir` holds HEAD and its reflog; `commonDir` the branches, packed-refs and their reflogs (the same folder outside a linked worktree). */
  constructor(
    readonly gitDir: string,
    readonly commonDir: string,
    hexLen: number,
  ) {
    this.#hex = new RegExp(`^[0-9a-f]{${hexLen}}$`);
  }

  /** Whether refs are files here (not a reftable store, which git answers for itself). */
  usable(): boolean {
    return !existsSync(path.join(this.commonDir, 'reftable'));
  }

  /** HEAD's branch and the commit it names, read from the files git keeps them in. */
  head(): HeadRead {
    const text = readOrNull(path.join(this.gitDir, 'HEAD'));
    if (text === null) return { kind: 'unusual', why: 'no HEAD file' };
    const m = /^ref: (\S+)\n?$/.exec(text);
    if (!m) return { kind: 'unusual', why: 'HEAD is detached' };
    const ref = m[1]!;
    if (!REF_NAME.test(ref) || ref.split('/').some((s) => s === '' || s === '.' || s === '..' || s.endsWith('.lock')))
      return { kind: 'unusual', why: `HEAD names ${ref}` };
    const sha = this.#value(ref);
    if (sha === null) return { kind: 'unusual', why: `${ref} has no commit yet, or is not a plain ref` };
    return { kind: 'ok', ref, sha };
  }

  /** A branch's id: its loose file, else its line in packed-refs; null when neither holds a plain id. */
  #value(ref: string): string | null {
    const loose = readOrNull(path.join(this.commonDir, ref));
    if (loose !== null) {
      const v = loose.trim();
      return this.#hex.test(v) ? v : null; // a symref chain or a damaged file: git's business
    }
    const packed = readOrNull(path.join(this.commonDir, 'packed-refs'));
    if (packed === null) return null;
    for (const line of packed.split('\n')) {
      if (line.startsWith('#') || line.startsWith('^')) continue;
      const sp = line.indexOf(' ');
      if (sp > 0 && line.slice(sp + 1) === ref) {
        const v = line.slice(0, sp);
        return this.#hex.test(v) ? v : null;
      }
    }
    return null;
  }

  /**
   * Moves `ref` (HEAD's branch) from `old` to `sha`, as `git update-ref -m <msg> HEAD <sha> <old>` does: HEAD.lock and
   * `<ref>.lock` held while HEAD and the ref are checked, the branch's and HEAD's reflogs appended, the new value
   * renamed into place. Not fsynced, like git's default (core.fsync leaves refs out).
   */
  update(ref: string, sha: string, old: string, msg: string, log: RefLogSettings): RefUpdate {
    const headLock = path.join(this.gitDir, 'HEAD.lock');
    const refFile = path.join(this.commonDir, ref);
    const refLock = `${refFile}.lock`;
    const taken: string[] = [];
    const lock = (file: string): number | null => {
      try {
        const fd = openSync(file, 'wx', 0o666);
        taken.push(file);
        return fd;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
        throw err;
      }
    };
    const busy = (file: string): RefUpdate => ({
      kind: 'busy',
      message: `cannot lock ref: Unable to create '${file}': File exists. Another git process seems to be running in this repository`,
    });
    try {
      const hfd = lock(headLock);
      if (hfd === null) return busy(headLock);
      closeSync(hfd);
      mkdirSync(path.dirname(refFile), { recursive: true });
      const fd = lock(refLock);
      if (fd === null) return busy(refLock);
      try {
        const now = this.head();
        if (now.kind !== 'ok' || now.ref !== ref || now.sha !== old)
          return {
            kind: 'moved',
            message: `cannot lock ref 'HEAD': is at ${now.kind === 'ok' ? `${now.ref} ${now.sha}` : now.why} but expected ${ref} ${old}`,
          };
        const line = Buffer.from(`${sha}\n`);
        for (let at = 0; at < line.length; ) at += writeSync(fd, line, at);
      } finally {
        closeSync(fd);
      }
      const d = new Date();
      const entry = `${old} ${sha} ${log.ident} ${Math.floor(d.getTime() / 1000)} ${tz(d)}\t${msg}\n`;
      this.#appendLog(path.join(this.commonDir, 'logs', ref), entry, log.logAll, true);
      this.#appendLog(path.join(this.gitDir, 'logs', 'HEAD'), entry, log.logAll, true);
      renameSync(refLock, refFile);
      taken.splice(taken.indexOf(refLock), 1);
      return { kind: 'done' };
    } finally {
      for (const f of taken) {
        try {
          unlinkSync(f);
        } catch {
          /* gone already */
        }
      }
    }
  }

  /** Appends to a reflog that exists, or creates it when core.logAllRefUpdates says git would (`auto`: a branch or HEAD). */
  #appendLog(file: string, entry: string, logAll: boolean | 'always', auto: boolean): void {
    const exists = statSync(file, { throwIfNoEntry: false }) !== undefined;
    if (!exists && !(logAll === 'always' || (logAll && auto))) return;
    if (!exists) mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, entry, { mode: 0o666 });
  }
}
