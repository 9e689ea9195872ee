// Tree and commit objects written straight into the repository's object store as loose objects, as `git mktree` and
// `git hash-object -w` write them, by the process that builds them: no round trip to a git process per object, and
// none of mktree's lookup of every entry of a folder (~9 ms per commit for a folder of 500 loose notes). The file calls are
// synchronous: this runs in the spawner process, and a handful of small calls cost less than as many thread-pool hops.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

/** One entry of a tree object: its mode as git writes it (`100644`, `40000`, …) and its object id in hex. */
export interface TreeEntry {
  mode: string;
  sha: string;
}

/**
 * A tree object's body: entries in git's order (names compared bytewise, a folder's name as if it ended in `/`),
 * each `<mode> <name>\0<raw id>`.
 */
export function treeBody(entries: ReadonlyMap<string, TreeEntry>): Buffer {
  const rows = [...entries].map(([name, e]) => ({ key: e.mode === '40000' ? `${name}/` : name, name, e }));
  // Below U+D800, UTF-16 order is UTF-8 byte order (git's): compare strings, and bytes only when a name needs it.
  if (rows.some((r) => /[\ud800-\uffff]/.test(r.name)))
    rows.sort((a, b) => Buffer.compare(Buffer.from(a.key, 'utf8'), Buffer.from(b.key, 'utf8')));
  else rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let size = 0;
  for (const r of rows) size += r.e.mode.length + 1 + Buffer.byteLength(r.name, 'utf8') + 1 + r.e.sha.length / 2;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const r of rows) {
    at += out.write(r.e.mode, at, 'latin1');
    out[at++] = 0x20;
    at += out.write(r.name, at, 'utf8');
    out[at++] = 0;
    at += out.write(r.e.sha, at, 'hex');
  }
  return out;
}

export class LooseObjects {
  /** `objectsDir`: `git rev-parse --git-path objects`; `algo`: the repository's object format. */
  constructor(
    readonly objectsDir: string,
    readonly algo: 'sha1' | 'sha256',
  ) {}

  /**
   * Writes one object and answers its id. Written beside its final name and linked there, so a reader (or a kill)
   * never sees half an object; one already there is the same bytes (its name is their hash) and is only freshened,
   * as git does, so a `gc --prune` under way does not take it as old litter.
   */
  write(type: 'tree' | 'commit', body: Buffer): string {
    const full = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
    const sha = createHash(this.algo).update(full).digest('hex');
    const dir = path.join(this.objectsDir, sha.slice(0, 2));
    const file = path.join(dir, sha.slice(2));
    const now = new Date();
    try {
      utimesSync(file, now, now);
      return sha;
    } catch {
      /* not there yet */
    }
    // git's own temp name: a `git gc` removes one a kill left behind
    const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('base64url')}`);
    let fd: number;
    try {
      fd = openSync(tmp, 'wx', 0o444);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dir, { recursive: true }); // the first object of that fan-out folder (or `git prune` removed it)
      fd = openSync(tmp, 'wx', 0o444);
    }
    try {
      const data = deflateSync(full, { level: 1 });
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // written meanwhile by git: the same bytes
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        /* gone already */
      }
    }
    return sha;
  }
}
