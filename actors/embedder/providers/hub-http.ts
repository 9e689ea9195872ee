// HTTP against a hub with Hugging Face's layout (`/<org>/<name>/resolve/<revision>/<file>`): a HEAD for a file's size,
// ETag and commit (following relative redirects, stopping at the CDN's absolute one, as huggingface_hub does), and a
// GET that streams into a temp file, resuming with Range / If-Range from the bytes a cut-off attempt left.
import { open } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { VERSION } from '../../../supervisors/runtime/version.js';

const HEAD_TIMEOUT_MS = 30_000;
/** A download that receives nothing for this long is cut off and resumed. */
const IDLE_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/** A hub answer or transport failure, as data: `kind` decides whether trying again can help. */
export class HubError extends Error {
  constructor(
    readonly kind: 'not_found' | 'refused' | 'unreachable' | 'server',
    message: string,
  ) {
    super(message);
  }
}

export interface FileMeta {
  /** Where to GET the bytes: the resolve URL, or the CDN URL it redirects to. */
  location: string;
  /** `location` is the CDN's (another host): its URL names the content (sha256), and its own ETags are not the hub's. */
  cdn: boolean;
  size: number | null;
  /** Normalised: no W/ prefix, no quotes. The sha256 for LFS files, the git blob sha1 for small ones. */
  etag: string | null;
  commit: string | null;
}

export function resolveUrl(hubUrl: string, repo: string, revision: string, file: string): string {
  const path = file.split('/').map(encodeURIComponent).join('/');
  return `${hubUrl.replace(/\/+$/, '')}/${repo}/resolve/${encodeURIComponent(revision)}/${path}`;
}

export function normaliseEtag(v: string | null): string | null {
  return v ? v.replace(/^W\//, '').replace(/^"|"$/g, '') : null;
}

const headers = { 'user-agent': `memvault/${VERSION}`, 'accept-encoding': 'identity' };

/** HEAD: null when the repository has no such file (404 EntryNotFound); throws HubError otherwise. */
export async function headFile(url: string): Promise<FileMeta | null> {
  let at = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res: Response;
    try {
      res = await fetch(at, { method: 'HEAD', headers, redirect: 'manual', signal: AbortSignal.timeout(HEAD_TIMEOUT_MS) });
    } catch (err) {
      throw new HubError('unreachable', `${at}: ${describe(err)}`);
    }
    const h = res.headers;
    const loc = h.get('location');
    if (res.status >= 300 && res.status < 400 && loc) {
      // a relative redirect is the hub itself (a renamed repository): follow it; an absolute one is the CDN
      // holding the bytes, and this response already says what they are (X-Linked-Size / X-Linked-Etag)
      if (loc.startsWith('/')) {
        at = new URL(loc, at).href;
        continue;
      }
      return meta(new URL(loc, at).href, h, true);
    }
    if (res.ok) return meta(at, h, false);
    const code = h.get('x-error-code');
    if (res.status === 404 && (code === 'EntryNotFound' || code === null)) return null;
    throw statusError(at, res.status, code);
  }
  throw new HubError('server', `${url}: more than ${MAX_REDIRECTS} redirects`);
}

function meta(location: string, h: Headers, cdn: boolean): FileMeta {
  const size = Number(h.get('x-linked-size') ?? h.get('content-length') ?? Number.NaN);
  return {
    location,
    cdn,
    size: Number.isSafeInteger(size) && size >= 0 ? size : null,
    etag: normaliseEtag(h.get('x-linked-etag') ?? h.get('etag')),
    commit: h.get('x-repo-commit'),
  };
}

function statusError(url: string, status: number, code: string | null): HubError {
  if (status === 404) return new HubError('not_found', `${url}: 404 ${code ?? 'not found'}`);
  if (status === 401 || status === 403)
    return new HubError('refused', `${url}: ${status}${code ? ` ${code}` : ''} (a private or gated repository; memvault sends no token)`);
  return new HubError('server', `${url}: HTTP ${status}`);
}

function describe(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

export interface FetchOutcome {
  /** The temp file now holds the whole body (the server said it ended); false: cut off, resume from its size. */
  complete: boolean;
  /** Bytes now in the temp file. */
  bytes: number;
  /** This attempt continued earlier bytes (206) rather than starting over. */
  resumed: boolean;
  /** Why it was cut off. */
  error: string | null;
}

/**
 * GETs `meta.location` into `temp`, continuing from the bytes already there when the server honours Range for the
 * same ETag (If-Range), else starting over. Never throws for a cut-off body (the caller resumes); throws HubError
 * for an HTTP error. node:http rather than fetch: a web stream drops the chunks it has queued when the connection
 * breaks, node's 'data' events hand over every byte that arrived, so a resume loses nothing.
 */
export async function fetchInto(meta: FileMeta, temp: string, onBytes: (total: number) => void): Promise<FetchOutcome> {
  // opened before the request: from the response on, nothing may be awaited until its listeners are on, or a body
  // cut off meanwhile would end unseen (and its bytes be dropped)
  const fh = await open(temp, 'a');
  try {
    const have = (await fh.stat()).size;
    const ask: Record<string, string> = { ...headers };
    if (have > 0) {
      ask['range'] = `bytes=${have}-`;
      // the hub's own host: the rest only if the file is still the one begun (If-Range); a CDN URL names its content
      // and answers with ETags of its own, so there an If-Range would only ever cost the whole file again
      if (meta.etag && !meta.cdn) ask['if-range'] = `"${meta.etag}"`;
    }
    const res = await get(meta.location, ask);
    if (res.statusCode === 416 && have > 0 && meta.size !== null && have >= meta.size) {
      res.resume();
      return { complete: true, bytes: have, resumed: true, error: null }; // already whole
    }
    if (res.statusCode !== 200 && res.statusCode !== 206) {
      res.resume();
      throw statusError(meta.location, res.statusCode ?? 0, String(res.headers['x-error-code'] ?? '') || null);
    }
    const resumed = res.statusCode === 206 && contentRangeStart(res.headers['content-range']) === have;
    if (res.statusCode === 206 && !resumed) {
      // a range we did not ask for: start over cleanly
      res.destroy();
      await fh.truncate(0);
      return { complete: false, bytes: 0, resumed: false, error: `unexpected Content-Range ${res.headers['content-range']}` };
    }
    let bytes = resumed ? have : 0;
    const error = await new Promise<string | null>((resolve) => {
      // a whole body (200) replaces what was there; appends then start at 0
      let writing: Promise<unknown> = resumed ? Promise.resolve() : fh.truncate(0);
      let queued = 0;
      let failed: string | null = null;
      let settled = false;
      const settle = (err: string | null) => {
        if (settled) return;
        settled = true;
        void writing.then(() => resolve(failed ?? err));
      };
      res.setTimeout(IDLE_TIMEOUT_MS, () => res.destroy(new Error(`no data for ${IDLE_TIMEOUT_MS / 1000} s`)));
      res.on('data', (chunk: Buffer) => {
        queued += chunk.length;
        if (queued > MAX_QUEUED) res.pause(); // the disk is behind: let TCP hold the rest
        writing = writing.then(async () => {
          if (failed) return;
          try {
            await fh.write(chunk);
            bytes += chunk.length;
            onBytes(bytes);
          } catch (err) {
            failed = (err as Error).message;
            res.destroy();
          }
          queued -= chunk.length;
          if (queued <= MAX_QUEUED && res.isPaused()) res.resume();
        });
      });
      res.on('error', (err) => settle(describe(err)));
      // 'close' comes after the last 'data' whether the body ended or the connection broke
      res.on('close', () => settle(res.complete ? null : 'the connection was cut'));
    });
    return { complete: error === null, bytes, resumed, error };
  } finally {
    await fh.sync().catch(() => undefined);
    await fh.close();
  }
}

/** Bytes received but not yet written before the download pauses for the disk. */
const MAX_QUEUED = 8 * 1024 * 1024;

/** A GET following redirects (the CDN may send one more); resolves at the final response's headers. */
function get(url: string, ask: Record<string, string>, hops = 0): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, { headers: ask, timeout: HEAD_TIMEOUT_MS }, (res) => {
      const loc = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && loc) {
        res.resume();
        if (hops >= MAX_REDIRECTS) return reject(new HubError('server', `${url}: more than ${MAX_REDIRECTS} redirects`));
        return resolve(get(new URL(loc, url).href, ask, hops + 1));
      }
      resolve(res);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${HEAD_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => reject(new HubError('unreachable', `${url}: ${describe(err)}`)));
    req.end();
  });
}

function contentRangeStart(v: string | null | undefined): number | null {
  const m = v ? /^bytes (\d+)-/.exec(v) : null;
  return m ? Number(m[1]) : null;
}
