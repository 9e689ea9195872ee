// LOCK (new, refresh, or on an unmapped URL: an empty file, committed), UNLOCK and PROPPATCH for /dav (class 2).
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { atomicWriteFile } from '../../git-writer/vault/atomic.js';
import { davPath, hrefFor, plain, statEntry, xmlEsc } from './dav-paths.js';
import { activeLockXml, etagFor, parseIf, timeoutOf } from './dav-locks.js';
import { child, emptyProp, parseXml, serialize, DAV_NS } from './dav-props.js';
import { readBody, type DavWriter } from './dav-write.js';

const XML = { 'content-type': 'application/xml; charset=utf-8' };

function xmlAnswer(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): number {
  const text = `<?xml version="1.0" encoding="utf-8"?>\n${body}`;
  res.writeHead(status, { ...XML, 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
  return status;
}

export async function handleLock(w: DavWriter, req: IncomingMessage, res: ServerResponse, pathname: string, user: string) {
  const rel = davPath(pathname);
  const body = await readBody(req);
  if (rel === null) return plain(res, 403, `${pathname} is outside what WebDAV may lock`);
  const timeoutS = timeoutOf(req.headers.timeout as string | undefined);
  const root = body ? parseXml(body) : null;
  if (root === 'bad') return plain(res, 400, 'the LOCK body is not well-formed XML');
  if (root === null) {
    // a refresh: the token comes in If
    const lists = parseIf(String(req.headers.if ?? ''));
    const token = lists?.flatMap((l) => l.conds.flatMap((c) => (c.token ? [c.token] : [])))[0];
    const l = token ? w.locks.refresh(token, timeoutS) : null;
    if (!l) return plain(res, 412, 'a LOCK without a body refreshes a lock: send its token in If');
    return xmlAnswer(res, 200, `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(l)}</D:lockdiscovery></D:prop>`);
  }
  if (root.localName !== 'lockinfo' || root.namespaceURI !== DAV_NS) return plain(res, 400, 'expected a DAV:lockinfo');
  const scope = child(root, 'lockscope');
  const exclusive = !(scope && child(scope, 'shared'));
  const ownerEl = child(root, 'owner');
  const deep = String(req.headers.depth ?? 'infinity').toLowerCase() !== '0';
  const e = await statEntry(w.vault, rel);
  if (rel === '' || (!e && !(await statEntry(w.vault, rel.split('/').slice(0, -1).join('/')))?.dir))
    return plain(res, 409, 'lock an existing resource, or a new name in an existing folder');
  // the If header (when given) must hold, and a lock we would conflict with is refused by lock() itself
  const cond = req.headers.if ? await w.locks.check(req, [], async (r) => etagFor(await statEntry(w.vault, r))) : null;
  if (cond) return plain(res, cond, 'the If header does not hold');
  const l = w.locks.lock(rel, deep, exclusive, ownerEl ? serialize(ownerEl) : '', timeoutS);
  if (l === 423) return xmlAnswer(res, 423, `<D:error xmlns:D="DAV:"><D:no-conflicting-lock/></D:error>`);
  let status = 200;
  if (!e) {
    // a lock on an unmapped URL makes an empty file (RFC 4918 7.3), recorded like a PUT
    await atomicWriteFile(path.join(w.vault, ...rel.split('/')), '');
    const c = await w.commit([rel], user);
    if (!c.ok) {
      w.locks.unlock(l.token);
      return plain(res, 503, `git could not record the new empty file (${c.message})`);
    }
    status = 201;
  }
  return xmlAnswer(res, status, `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(l)}</D:lockdiscovery></D:prop>`, {
    'lock-token': `<${l.token}>`,
  });
}

export function handleUnlock(w: DavWriter, req: IncomingMessage, res: ServerResponse, pathname: string) {
  req.resume();
  const rel = davPath(pathname);
  const token = /<([^>]+)>/.exec(String(req.headers['lock-token'] ?? ''))?.[1];
  if (rel === null || !token) return plain(res, 400, 'UNLOCK needs a Lock-Token header');
  if (!w.locks.on(rel).some((l) => l.token === token)) return plain(res, 409, 'no such lock on this resource');
  w.locks.unlock(token);
  res.writeHead(204);
  res.end();
  return 204;
}

export async function handleProppatch(w: DavWriter, req: IncomingMessage, res: ServerResponse, pathname: string) {
  const rel = davPath(pathname);
  const body = await readBody(req);
  const e = rel === null ? null : await statEntry(w.vault, rel);
  if (rel === null || !e) return plain(res, 404, `nothing at ${pathname}`);
  const cond = await w.locks.check(req, [{ rel, deep: false }], async (r) => etagFor(await statEntry(w.vault, r)));
  if (cond) return plain(res, cond, cond === 423 ? 'locked' : 'the If header does not hold');
  const root = body ? parseXml(body) : null;
  if (root === 'bad' || root === null) return plain(res, 400, 'the PROPPATCH body is not well-formed XML');
  const r = w.props.patch(rel, root);
  if (r === 'bad') return plain(res, 400, 'expected a DAV:propertyupdate of set/remove');
  const stat = (ok: boolean, live: boolean) => (ok ? '200 OK' : live ? '403 Forbidden' : '424 Failed Dependency');
  const parts = r
    .map(
      (p) =>
        `<D:propstat><D:prop>${emptyProp(p.name)}</D:prop><D:status>HTTP/1.1 ${stat(p.ok, p.name.ns === DAV_NS)}</D:status></D:propstat>`,
    )
    .join('');
  return xmlAnswer(
    res,
    207,
    `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${xmlEsc(hrefFor(e))}</D:href>${parts}</D:response></D:multistatus>`,
  );
}
