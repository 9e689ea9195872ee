// The vault over WebDAV at /dav/ (class 1 and 2): OPTIONS, PROPFIND depth 0/1/infinity (named props, allprop, dead
// props, lockdiscovery), GET/HEAD with ETag and If-None-Match; writes (dav-write.ts) are atomic and committed at once
// as the WebDAV user; LOCK/UNLOCK/PROPPATCH in dav-lock.ts. Hidden entries (`.git`, `.memvault`, `.obsidian`, …)
// and symlinks are invisible and untouchable (README: WebDAV).
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { DavAuth } from './auth.js';
import { davPath, etagOf, hrefFor, plain, statEntry, xmlEsc, type Entry } from './dav-paths.js';
import { SUPPORTED_LOCK } from './dav-locks.js';
import { emptyProp, keyOf, parseXml, propfindWants, type PropName } from './dav-props.js';
import { handleWrite, readBody, type DavWriter } from './dav-write.js';
import { handleLock, handleProppatch, handleUnlock } from './dav-lock.js';

export { DAV_PREFIX, davPath } from './dav-paths.js';

const METHODS = 'OPTIONS, GET, HEAD, PROPFIND, PROPPATCH, PUT, DELETE, MKCOL, COPY, MOVE, LOCK, UNLOCK';
const MAX_ENTRIES = 100_000; // a Depth: infinity listing stops here (507 would lose the client's place; we truncate)

export interface DavDeps {
  vault: string;
  auth: DavAuth;
  /** Logged per refused login, like the API's auth_failed. */
  onAuthFailed(remote: string | undefined): void;
  writer: DavWriter;
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
    const e = await statEntry(vault, dir.rel ? `${dir.rel}/${n}` : n);
    if (!e) continue;
    out.push(e);
    if (e.dir) await children(vault, e, depth - 1, out);
  }
}

function liveProps(w: DavWriter, e: Entry): Map<string, string> {
  const name = e.rel.split('/').pop() ?? '';
  const m = new Map<string, string>([
    ['displayname', `<D:displayname>${xmlEsc(name)}</D:displayname>`],
    ['resourcetype', `<D:resourcetype>${e.dir ? '<D:collection/>' : ''}</D:resourcetype>`],
    ['getlastmodified', `<D:getlastmodified>${new Date(e.mtimeMs).toUTCString()}</D:getlastmodified>`],
    ['creationdate', `<D:creationdate>${new Date(e.ctimeMs).toISOString()}</D:creationdate>`],
    ['supportedlock', SUPPORTED_LOCK],
    ['lockdiscovery', `<D:lockdiscovery>${w.locks.discovery(e.rel)}</D:lockdiscovery>`],
  ]);
  if (!e.dir) {
    m.set('getcontentlength', `<D:getcontentlength>${e.size}</D:getcontentlength>`);
    m.set(
      'getcontenttype',
      `<D:getcontenttype>${e.rel.endsWith('.md') ? 'text/markdown; charset=utf-8' : 'application/octet-stream'}</D:getcontenttype>`,
    );
    m.set('getetag', `<D:getetag>${xmlEsc(etagOf(e))}</D:getetag>`);
  }
  return m;
}

function propXml(w: DavWriter, e: Entry, wants: PropName[] | null): string {
  const live = liveProps(w, e);
  const dead = w.props.get(e.rel);
  let found: string[];
  const missing: string[] = [];
  if (wants === null) found = [...live.values(), ...dead.map((d) => d.xml)];
  else {
    found = [];
    const deadBy = new Map(dead.map((d) => [keyOf(d.name), d.xml]));
    for (const p of wants) {
      const x = p.ns === 'DAV:' ? live.get(p.local) : deadBy.get(keyOf(p));
      if (x) found.push(x);
      else missing.push(emptyProp(p));
    }
  }
  const stat = (props: string[], status: string) =>
    props.length ? `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>` : '';
  return `<D:response><D:href>${xmlEsc(hrefFor(e))}</D:href>${stat(found, '200 OK')}${stat(missing, '404 Not Found')}</D:response>`;
}

/** Serves one request under /dav (the caller routes only those); resolves with the status sent. */
export async function handleDav(d: DavDeps, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
  const user = await d.auth.check(req.headers.authorization);
  if (!user) {
    req.resume();
    d.onAuthFailed(req.socket.remoteAddress);
    return plain(res, 401, 'log in with a user from webdav.users', { 'www-authenticate': 'Basic realm="memvault", charset="UTF-8"' });
  }
  const method = req.method ?? 'GET';
  if ((req.url ?? '').includes('#')) {
    // a fragment is the client's business; acting on the path without it could delete a whole folder (litmus)
    req.resume();
    return plain(res, 400, 'a request URL must not carry a #fragment');
  }
  switch (method) {
    case 'OPTIONS':
      req.resume();
      res.writeHead(200, { dav: '1, 2', allow: METHODS, 'ms-author-via': 'DAV', 'content-length': '0' });
      res.end();
      return 200;
    case 'PUT':
    case 'DELETE':
    case 'MKCOL':
    case 'COPY':
    case 'MOVE':
      return handleWrite(d.writer, req, res, pathname, user);
    case 'LOCK':
      return handleLock(d.writer, req, res, pathname, user);
    case 'UNLOCK':
      return handleUnlock(d.writer, req, res, pathname);
    case 'PROPPATCH':
      return handleProppatch(d.writer, req, res, pathname);
    case 'GET':
    case 'HEAD':
    case 'PROPFIND':
      break;
    default:
      req.resume();
      return plain(res, 405, `${method} is not a WebDAV method memvault serves`, { allow: METHODS });
  }
  const body = method === 'PROPFIND' ? await readBody(req) : null;
  if (method !== 'PROPFIND') req.resume();
  const rel = davPath(pathname);
  const e = rel === null ? null : await statEntry(d.vault, rel);
  if (!e) return plain(res, 404, `nothing at ${pathname}`);
  if (method === 'PROPFIND') {
    const root = body ? parseXml(body) : null;
    const wants = root === 'bad' ? 'bad' : propfindWants(root);
    if (wants === 'bad') return plain(res, 400, 'the PROPFIND body is not a well-formed DAV:propfind');
    const depthHeader = String(req.headers['depth'] ?? 'infinity').toLowerCase();
    const depth = depthHeader === '0' ? 0 : depthHeader === '1' ? 1 : Number.POSITIVE_INFINITY;
    const all = [e];
    if (e.dir) await children(d.vault, e, depth, all);
    const text = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${all.map((x) => propXml(d.writer, x, wants)).join('')}</D:multistatus>`;
    res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
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
