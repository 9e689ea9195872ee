// WebDAV writes (PUT, DELETE, MKCOL, COPY, MOVE): each file lands atomically (temp + rename, never through a symlink,
// never into a hidden folder), then the git writer commits exactly those paths at once as the WebDAV user — one commit
// per PUT, DELETE, COPY or MOVE. A stale If-Match is 412 with nothing changed (README: WebDAV).
import { cp, lstat, mkdir, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { atomicWriteFile } from '../../git-writer/vault/atomic.js';
import type { PersonCommitResult } from '../../../messages/to-git.js';
import { DAV_PREFIX, davPath, etagOf, plain, statEntry, type Entry } from './dav-paths.js';
import { etagFor, type DavLocks } from './dav-locks.js';
import type { DavProps } from './dav-props.js';

const MAX_PUT_BYTES = 256 * 1024 * 1024;

export interface DavWriter {
  vault: string;
  /** Commits `paths` (already changed on disk) now as `user`; the git writer's `git.commit_person`. */
  commit(paths: string[], user: string): Promise<PersonCommitResult>;
  /** Before a write: a person's uncommitted edit of `paths` the git writer is waiting on is committed first, as theirs. */
  commitPending(paths: string[]): Promise<void>;
  locks: DavLocks;
  props: DavProps;
}

const abs = (vault: string, rel: string) => path.join(vault, ...rel.split('/').filter(Boolean));
const parentOf = (rel: string) => rel.split('/').slice(0, -1).join('/');

/** The parent folder of `rel` exists, is a real folder (no symlink on the way) inside the vault. */
async function parentOk(vault: string, rel: string): Promise<boolean> {
  const p = parentOf(rel);
  try {
    const [root, real] = await Promise.all([realpath(vault), realpath(abs(vault, p))]);
    return real === path.join(root, ...p.split('/').filter(Boolean)) && (await lstat(real)).isDirectory();
  } catch {
    return false;
  }
}

/** A symlink (or a device, socket…) at `rel` itself: never replaced, never followed. */
async function foreignAt(vault: string, rel: string): Promise<boolean> {
  try {
    const s = await lstat(abs(vault, rel));
    return !s.isFile() && !s.isDirectory();
  } catch {
    return false;
  }
}

/** Every visible file under `rel` (itself if a file), vault-relative: what a folder's DELETE/MOVE/COPY commits. */
async function filesUnder(vault: string, rel: string): Promise<string[]> {
  const s = await lstat(abs(vault, rel)).catch(() => null);
  if (!s) return [];
  if (s.isFile()) return [rel];
  if (!s.isDirectory()) return [];
  const out: string[] = [];
  for (const n of await readdir(abs(vault, rel))) out.push(...(await filesUnder(vault, rel ? `${rel}/${n}` : n)));
  return out;
}

export /** The paths of `before` at or below `dest`. */
async function filesUnderGone(before: string[], dest: string): Promise<string[]> {
  return before.filter((p) => p === dest || p.startsWith(`${dest}/`));
}

export function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_PUT_BYTES) {
        req.destroy();
        resolve(null);
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** If-Match / If-None-Match against the resource as it is now: the status to refuse with, or null. */
export function preconditionFails(req: IncomingMessage, e: Entry | null): number | null {
  const list = (h: string | string[] | undefined) =>
    String(h ?? '')
      .split(',')
      .map((x) => x.trim().replace(/^W\//, ''))
      .filter(Boolean);
  const im = list(req.headers['if-match']);
  if (im.length && !(e && (im.includes('*') || (!e.dir && im.includes(etagOf(e)))))) return 412;
  const inm = list(req.headers['if-none-match']);
  if (inm.length && e && (inm.includes('*') || (!e.dir && inm.includes(etagOf(e))))) return 412;
  return null;
}

async function committed(w: DavWriter, res: ServerResponse, paths: string[], user: string, status: number, headers = {}) {
  const c = paths.length ? await w.commit([...new Set(paths)], user) : ({ ok: true, commit: null, paths: [] } as const);
  if (!c.ok) return plain(res, 503, `the change is on disk but git could not record it yet (${c.message}); it is retried`);
  res.writeHead(status, { 'content-length': '0', ...(c.commit ? { 'x-memvault-commit': c.commit } : {}), ...headers });
  res.end();
  return status;
}

/** The Destination header as a vault-relative path, or a status to refuse with. */
function destination(req: IncomingMessage): string | number {
  const raw = req.headers.destination;
  if (!raw) return 400;
  let p: string;
  try {
    p = new URL(raw, 'http://x').pathname;
  } catch {
    return 400;
  }
  if (p !== DAV_PREFIX && !p.startsWith(`${DAV_PREFIX}/`)) return 502; // another server, or outside /dav
  const rel = davPath(p);
  return rel === null || rel === '' ? 403 : rel;
}

export async function handleWrite(w: DavWriter, req: IncomingMessage, res: ServerResponse, pathname: string, user: string) {
  const method = req.method ?? '';
  const rel = davPath(pathname);
  if (rel === null) {
    req.resume();
    return plain(res, 403, `${pathname} is outside what WebDAV may change (hidden, .git, .memvault, ..)`);
  }
  if (rel === '' && method !== 'COPY') {
    req.resume();
    return plain(res, 403, 'the vault root itself cannot be changed');
  }
  if (await foreignAt(w.vault, rel)) {
    req.resume();
    return plain(res, 403, `${pathname} is a symlink or special file: WebDAV leaves it alone`);
  }
  const e = await statEntry(w.vault, rel);
  const pre = preconditionFails(req, e);
  if (pre) {
    req.resume();
    return plain(res, pre, 'precondition failed: the resource changed since you read it (nothing was written)');
  }
  const dest = method === 'COPY' || method === 'MOVE' ? destination(req) : null;
  const rels = [
    ...(method === 'COPY' ? [] : [{ rel, deep: method !== 'PUT' }]),
    ...(typeof dest === 'string' ? [{ rel: dest, deep: true }] : []),
  ];
  const locked = await w.locks.check(req, rels, async (r) => etagFor(await statEntry(w.vault, r)));
  if (locked) {
    req.resume();
    return plain(res, locked, locked === 423 ? `${pathname} is locked: send its lock token in If` : 'the If header does not hold');
  }
  const touching = [
    ...(e?.dir ? await filesUnder(w.vault, rel) : [rel]),
    ...(typeof dest === 'string' ? await filesUnder(w.vault, dest) : []),
  ].filter((p) => p !== '');
  if (method !== 'MKCOL') await w.commitPending(touching);
  switch (method) {
    case 'PUT': {
      if (e?.dir) return plain(res, 405, 'a folder cannot be PUT over', { allow: 'PROPFIND, DELETE, MKCOL, COPY, MOVE' });
      if (!(await parentOk(w.vault, rel))) {
        req.resume();
        return plain(res, 409, 'the parent folder does not exist (MKCOL it first)');
      }
      const body = await readBody(req);
      if (!body) return plain(res, 413, `over ${MAX_PUT_BYTES} bytes`);
      await atomicWriteFile(abs(w.vault, rel), body);
      const after = await statEntry(w.vault, rel);
      return committed(w, res, [rel], user, e ? 204 : 201, after ? { etag: etagOf(after) } : {});
    }
    case 'MKCOL': {
      const body = await readBody(req);
      if (body && body.length > 0) return plain(res, 415, 'MKCOL takes no body');
      if (e) return plain(res, 405, 'something is already there');
      if (!(await parentOk(w.vault, rel))) return plain(res, 409, 'the parent folder does not exist');
      await mkdir(abs(w.vault, rel));
      res.writeHead(201, { 'content-length': '0' }); // git keeps no empty folders: nothing to commit yet
      res.end();
      return 201;
    }
    case 'DELETE': {
      req.resume();
      if (!e) return plain(res, 404, `nothing at ${pathname}`);
      const files = await filesUnder(w.vault, rel);
      await rm(abs(w.vault, rel), { recursive: true, force: true });
      w.props.remove(rel);
      w.locks.remove(rel);
      return committed(w, res, files, user, 204);
    }
    case 'COPY':
    case 'MOVE': {
      req.resume();
      if (dest === null || typeof dest === 'number')
        return plain(res, dest ?? 400, 'the Destination header must name a visible path under /dav/');
      if (!e) return plain(res, 404, `nothing at ${pathname}`);
      if (dest === rel || dest.startsWith(`${rel}/`) || (rel !== '' && rel.startsWith(`${dest}/`)) || rel === '')
        return plain(res, 403, 'source and destination overlap');
      if (await foreignAt(w.vault, dest)) return plain(res, 403, 'the destination is a symlink or special file');
      const there = await statEntry(w.vault, dest);
      if (there && String(req.headers.overwrite ?? 'T').toUpperCase() === 'F')
        return plain(res, 412, 'the destination exists and Overwrite is F');
      if (!(await parentOk(w.vault, dest))) return plain(res, 409, 'the destination folder does not exist');
      let before = [...(await filesUnder(w.vault, dest)), ...(method === 'MOVE' ? await filesUnder(w.vault, rel) : [])];
      if (there) await rm(abs(w.vault, dest), { recursive: true, force: true });
      if (there && there.dir !== e.dir) {
        // a folder over a file (or back): git cannot commit a path that changed kind in one go, so the removal first
        const goneFiles = await filesUnderGone(before, dest);
        const gone = goneFiles.length ? await w.commit(goneFiles, user) : ({ ok: true } as const);
        if (!gone.ok) return plain(res, 503, `git could not record the overwritten destination's removal (${gone.message})`);
        before = before.filter((p) => p !== dest && !p.startsWith(`${dest}/`));
      }
      w.props.remove(dest);
      if (method === 'MOVE') {
        await rename(abs(w.vault, rel), abs(w.vault, dest));
        w.props.move(rel, dest);
        w.locks.remove(rel);
      } else if (!e.dir) await atomicWriteFile(abs(w.vault, dest), await readFile(abs(w.vault, rel)));
      else if (String(req.headers.depth ?? 'infinity') === '0') await mkdir(abs(w.vault, dest));
      else
        await cp(abs(w.vault, rel), abs(w.vault, dest), {
          recursive: true,
          // hidden things and symlinks are not WebDAV's to copy
          filter: async (src) => !path.basename(src).startsWith('.') && !(await lstat(src)).isSymbolicLink(),
        });
      if (method === 'COPY') w.props.copy(rel, dest);
      const after = await filesUnder(w.vault, dest);
      return committed(w, res, [...before, ...after], user, there ? 204 : 201);
    }
    default:
      req.resume();
      return plain(res, 405, `${method} is not a WebDAV write`);
  }
}
