// git's index brought in line with a batch of agent commits by this process itself — what `git update-index -z
// --index-info` did, without starting a process per batch (~5–10 ms here). Versions 2 and 3 only; a split or sparse
// index, version 4 or anything unexpected answers `unsupported` and the caller runs update-index as before.
// Same locking as git: `index.lock` created exclusively (another git holding it: `busy`), written, renamed over.
// Synchronous file calls: this runs in the spawner process, where a few small calls cost less than thread-pool hops.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/** A path's new entry (mode as git writes it, blob id in hex), or null to remove it. */
export interface IndexChange {
  path: string;
  entry: { mode: string; sha: string } | null;
}

export type IndexOutcome = { kind: 'done' } | { kind: 'busy'; message: string } | { kind: 'unsupported'; why: string };

type Entry = { name: Buffer; stage: number; raw: Buffer };

const SLASH = 0x2f;

type Extension = { sig: string; body: Buffer };

/** Entries of a version 2/3 index and the extensions worth keeping (TREE, REUC); why not, when unsupported. */
function parse(buf: Buffer, rawLen: number): { version: number; entries: Entry[]; ext: Extension[] } | string {
  if (buf.length < 12 + rawLen || buf.toString('latin1', 0, 4) !== 'DIRC') return 'not an index file';
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return `index version ${version}`;
  const count = buf.readUInt32BE(8);
  const end = buf.length - rawLen;
  const entries: Entry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + 40 + rawLen;
    if (flagsAt + 2 > end) return 'a truncated entry';
    const flags = buf.readUInt16BE(flagsAt);
    const nameAt = flagsAt + 2 + (flags & 0x4000 ? 2 : 0);
    let nameLen = flags & 0xfff;
    if (nameLen === 0xfff) nameLen = buf.indexOf(0, nameAt) - nameAt;
    const size = (nameAt - at + nameLen + 8) & ~7;
    if (nameLen < 0 || at + size > end) return 'a truncated entry';
    entries.push({ name: buf.subarray(nameAt, nameAt + nameLen), stage: (flags >> 12) & 3, raw: buf.subarray(at, at + size) });
    at += size;
  }
  const ext: Extension[] = [];
  while (at + 8 <= end) {
    const sig = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32BE(at + 4);
    if (at + 8 + size > end) return `a truncated ${sig} extension`;
    const body = buf.subarray(at + 8, at + 8 + size);
    // lowercase: git must understand it to read the index (split index `link`, sparse `sdir`)
    if (sig[0]! >= 'a' && sig[0]! <= 'z') return `the ${sig} extension`;
    if (sig === 'REUC' || sig === 'TREE') ext.push({ sig, body });
    // the rest (untracked cache, fsmonitor, offset tables) are caches git rebuilds when absent
    at += 8 + size;
  }
  return { version, entries, ext };
}

/** `byName` order: git's (bytes, then stage). */
function cmp(a: Buffer, aStage: number, b: Buffer, bStage: number): number {
  return Buffer.compare(a, b) || aStage - bStage;
}

/** The first index at which `name` (stage 0) would go. */
function lowerBound(entries: readonly Entry[], name: Buffer): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(entries[mid]!.name, entries[mid]!.stage, name, 0) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function entryFor(change: IndexChange & { entry: { mode: string; sha: string } }, name: Buffer, rawLen: number): Buffer {
  const size = (40 + rawLen + 2 + name.length + 8) & ~7;
  const raw = Buffer.alloc(size); // stat data zero, as update-index --index-info leaves it: git compares the content
  raw.writeUInt32BE(Number.parseInt(change.entry.mode, 8), 24);
  Buffer.from(change.entry.sha, 'hex').copy(raw, 40);
  raw.writeUInt16BE(Math.min(name.length, 0xfff), 40 + rawLen);
  name.copy(raw, 40 + rawLen + 2);
  return raw;
}

/**
 * Removes every entry of `name` (any stage); when an entry for it is being added, also what would make a path both
 * a file and a folder (a file at one of its folders, entries under it), as git's own add does.
 */
function removePath(entries: Entry[], name: Buffer, adding: boolean): void {
  for (let cut = adding ? name.indexOf(SLASH) : -1; cut >= 0; cut = name.indexOf(SLASH, cut + 1)) {
    const dir = name.subarray(0, cut);
    const at = lowerBound(entries, dir);
    if (at < entries.length && entries[at]!.name.equals(dir)) entries.splice(at, 1);
  }
  const at = lowerBound(entries, name);
  let to = at;
  const under = Buffer.concat([name, Buffer.from('/')]);
  while (to < entries.length && entries[to]!.name.equals(name)) to++;
  if (adding) {
    const sub = lowerBound(entries, under);
    let subEnd = sub;
    while (subEnd < entries.length && entries[subEnd]!.name.subarray(0, under.length).equals(under)) subEnd++;
    entries.splice(sub, subEnd - sub); // after [at, to): removing it first leaves those places as they were
  }
  entries.splice(at, to - at);
}

/** The TREE extension with every folder on the way to a changed path marked invalid (count -1, no id), as git does. */
function invalidateTree(body: Buffer, paths: readonly string[], rawLen: number): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  const walk = (prefix: string | null, dirty: boolean): void => {
    const z = body.indexOf(0, at);
    const nl = body.indexOf(10, z);
    const name = body.toString('utf8', at, z);
    const [countText = '-1', subText = '0'] = body.toString('latin1', z + 1, nl).split(' ');
    const count = Number(countText);
    at = nl + 1;
    const here = prefix === null ? '' : `${prefix}${name}/`;
    const invalid = dirty || count < 0;
    if (count >= 0) at += rawLen;
    const subtrees = Number(subText);
    parts.push(Buffer.from(`${name}\0${invalid ? -1 : count} ${subtrees}\n`, 'utf8'));
    if (!invalid) parts.push(body.subarray(at - rawLen, at));
    for (let i = 0; i < subtrees; i++) {
      const z2 = body.indexOf(0, at);
      const child = `${here}${body.toString('utf8', at, z2)}/`;
      walk(
        here,
        paths.some((p) => p.startsWith(child)),
      );
    }
  };
  if (body.length > 0) walk(null, true);
  return Buffer.concat(parts);
}

/**
 * Applies `changes` to the index at `file` (created if missing), under git's lock. `hexLen` picks the checksum
 * (sha1 or sha256). Safe against a kill at any point: the index is replaced whole by a rename, or not at all.
 */
export function updateIndex(file: string, changes: readonly IndexChange[], hexLen: number): IndexOutcome {
  const rawLen = hexLen / 2;
  const lock = `${file}.lock`;
  let fd: number | undefined;
  try {
    fd = openSync(lock, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { kind: 'busy', message: `Unable to create '${lock}': File exists.` };
    throw err;
  }
  let renamed = false;
  try {
    let old: Buffer | null = null;
    try {
      old = readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const parsed = old === null ? { version: 2, entries: [], ext: [] } : parse(old, rawLen);
    if (typeof parsed === 'string') return { kind: 'unsupported', why: parsed };
    const { entries } = parsed;
    for (const c of changes) {
      const name = Buffer.from(c.path, 'utf8');
      removePath(entries, name, c.entry !== null);
      if (c.entry === null) continue;
      const e = { name, stage: 0, raw: entryFor({ ...c, entry: c.entry }, name, rawLen) };
      entries.splice(lowerBound(entries, name), 0, e);
    }
    const ext = parsed.ext.flatMap(({ sig, body }) => {
      const b =
        sig === 'TREE'
          ? invalidateTree(
              body,
              changes.map((c) => c.path),
              rawLen,
            )
          : body;
      const head = Buffer.alloc(8);
      head.write(sig, 0, 'latin1');
      head.writeUInt32BE(b.length, 4);
      return [head, b];
    });
    const head = Buffer.alloc(12);
    head.write('DIRC', 0, 'latin1');
    head.writeUInt32BE(parsed.version, 4);
    head.writeUInt32BE(entries.length, 8);
    const content = Buffer.concat([head, ...entries.map((e) => e.raw), ...ext]);
    const sum = createHash(hexLen === 64 ? 'sha256' : 'sha1')
      .update(content)
      .digest();
    const data = Buffer.concat([content, sum]);
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    closeSync(fd);
    fd = undefined;
    renameSync(lock, file);
    renamed = true;
    return { kind: 'done' };
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (!renamed) {
      try {
        unlinkSync(lock);
      } catch {
        /* never made, or gone */
      }
    }
  }
}
