// The vault over WebDAV at /dav/, read-only for now (class 1 reads: OPTIONS, PROPFIND depth 0/1/infinity, GET, HEAD
// with ETag and If-None-Match), so any WebDAV client or `rclone sync` can copy the vault down. Hidden entries
// (`.git`, `.memvault`, `.obsidian`, …) and symlinks are invisible; writes answer 405 naming why (README: WebDAV).
import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { DavAuth } from './auth.js';

export const DAV_PREFIX = '/dav';
const READ_METHODS = 'OPTIONS, GET, HEAD, PROPFIND';
const MAX_ENTRIES = 100_000; // a Depth: infinity listing stops here (507 would lose the client's place; we truncate)

export interface DavDeps {
  vault: string;
  auth: DavAuth;
  /** Logged per refused login, like the API's auth_failed. */
  onAuthFailed(remote: string | undefined): void;
}

interface Entry {
  rel: string; // vault-relative, '' for the root
  dir: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const xmlEsc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const etagOf = (e: Entry) => `"${e.size.toString(16)}-${Math.floor(e.mtimeMs).toString(16)}"`;
const hrefOf = (e: Entry) =>
  `${DAV_PREFIX}/${e.rel
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/')}${e.dir && e.rel !== '' ? '/' : ''}`;

/** The vault-relative path a /dav URL names, or null when it breaks a path rule (answered 404: nothing to see). */
export function davPath(pathname: string): string | null {
  let rest: string;
  try {
    rest = decodeURIComponent(pathname.slice(DAV_PREFIX.length));
  } catch {
    return null;
  }
  const segs = rest.split('/').filter((s) => s !== '');
  const control = (c: string) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;
  for (const s of segs) if (s === '..' || s.startsWith('.') || s.includes('\\') || [...s].some(control)) return null;
  return segs.join('/').normalize('NFC');
}

async function stat(vault: string, rel: string): Promise<Entry | null> {
  const abs = path.join(vault, ...rel.split('/').filter(Boolean));
  try {
    const [root, real] = await Promise.all([realpath(vault), realpath(abs)]);
    if (real !== path.join(root, ...rel.split('/').filter(Boolean))) return null; // a symlink on the way: invisible
    const s = await lstat(real);
    if (!s.isFile() && !s.isDirectory()) return null;
    return { rel, dir: s.isDirectory(), size: s.isFile() ? s.size : 0, mtimeMs: s.mtimeMs, ctimeMs: s.birthtimeMs || s.ctimeMs };
  } catch {
    return null;
  }
}

async function children(vault: string, dir: Entry, depth: number, out: Entry[]): Promise<void> {
  if (depth === 0 || out.length >= MAX_ENTRIES) return;
  let names: string[];
  try {
    names = (await readdir(path.join(vault, ...dir.rel.split('/').filter(Boolean)))).sort();
  } catch {
    return;
  }
  for (const n of names) {
    if (n.startsWith('.') || out.length >= MAX_ENTRIES) continue;
    const e = await stat(vault, dir.rel ? `${dir.rel}/${n}` : n);
    if (!e) continue;
    out.push(e);
    if (e.dir) await children(vault, e, depth - 1, out);
  }
}

function propXml(e: Entry): string {
  const name = e.rel.split('/').pop() ?? '';
  return `<D:response><D:href>${xmlEsc(hrefOf(e))}</D:href><D:propstat><D:prop><D:displayname>${xmlEsc(name)}</D:displayname><D:resourcetype>${e.dir ? '<D:collection/>' : ''}</D:resourcetype>${
    e.dir
      ? ''
      : `<D:getcontentlength>${e.size}</D:getcontentlength><D:getcontenttype>${e.rel.endsWith('.md') ? 'text/markdown; charset=utf-8' : 'application/octet-stream'}</D:getcontenttype><D:getetag>${xmlEsc(etagOf(e))}</D:getetag>`
  }<D:getlastmodified>${new Date(e.mtimeMs).toUTCString()}</D:getlastmodified><D:creationdate>${new Date(e.ctimeMs).toISOString()}</D:creationdate><D:supportedlock/></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): number {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
  return status;
}

/** Serves one request under /dav (the caller routes only those); resolves with the status sent. */
export async function handleDav(d: DavDeps, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
  const user = await d.auth.check(req.headers.authorization);
  if (!user) {
    d.onAuthFailed(req.socket.remoteAddress);
    return plain(res, 401, 'log in with a user from webdav.users', { 'www-authenticate': 'Basic realm="memvault", charset="UTF-8"' });
  }
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(200, { dav: '1', allow: READ_METHODS, 'ms-author-via': 'DAV', 'content-length': '0' });
    res.end();
    return 200;
  }
  if (method !== 'GET' && method !== 'HEAD' && method !== 'PROPFIND') {
    req.resume();
    return plain(
      res,
      405,
      `${method} is not served: memvault's WebDAV is read-only for now (edits go through the git writer; see README, WebDAV)`,
      {
        allow: READ_METHODS,
      },
    );
  }
  const rel = davPath(pathname);
  const e = rel === null ? null : await stat(d.vault, rel);
  if (!e) return plain(res, 404, `nothing at ${pathname}`);
  if (method === 'PROPFIND') {
    req.resume(); // the body (which properties) is not read: every live property is sent (allprop)
    const depthHeader = String(req.headers['depth'] ?? 'infinity').toLowerCase();
    const depth = depthHeader === '0' ? 0 : depthHeader === '1' ? 1 : Number.POSITIVE_INFINITY;
    const all = [e];
    if (e.dir) await children(d.vault, e, depth, all);
    const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${all.map(propXml).join('')}</D:multistatus>`;
    res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
    return 207;
  }
  if (e.dir) return plain(res, 200, 'a folder: PROPFIND lists it');
  const etag = etagOf(e);
  const headers = {
    etag,
    'last-modified': new Date(e.mtimeMs).toUTCString(),
    'content-type': e.rel.endsWith('.md') ? 'text/markdown; charset=utf-8' : 'application/octet-stream',
    'content-length': String(e.size),
  };
  const inm = req.headers['if-none-match'];
  if (inm && (inm === '*' || inm.split(',').some((x) => x.trim() === etag))) {
    res.writeHead(304, { etag });
    res.end();
    return 304;
  }
  res.writeHead(200, headers);
  if (method === 'HEAD') {
    res.end();
    return 200;
  }
  await new Promise<void>((resolve) => {
    const s = createReadStream(path.join(d.vault, ...e.rel.split('/')));
    s.on('error', () => {
      res.destroy();
      resolve();
    });
    s.on('end', () => resolve());
    s.pipe(res);
  });
  return 200;
}
