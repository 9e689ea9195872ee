// What a /dav URL names in the vault (path rules: no `..`, nothing hidden — so never .git or .memvault — no symlink on
// the way), each entry's ETag, and the plain-text answers the WebDAV handlers share.
import { lstat, realpath } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

export const DAV_PREFIX = '/dav';

export interface Entry {
  rel: string; // vault-relative, '' for the root
  dir: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export const xmlEsc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const etagOf = (e: Entry) => `"${e.size.toString(16)}-${Math.floor(e.mtimeMs * 1000).toString(16)}"`;

export const hrefFor = (e: Entry) =>
  `${DAV_PREFIX}/${e.rel
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/')}${e.dir && e.rel !== '' ? '/' : ''}`;

/** The vault-relative path a /dav URL names, or null when it breaks a path rule (answered 404: nothing to see). */
export function davPath(pathname: string): string | null {
  let segs: string[];
  try {
    // split before decoding: an encoded slash (%2F) is part of a name, and no vault name holds one
    segs = pathname
      .slice(DAV_PREFIX.length)
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (segs.some((s) => s.includes('/'))) return null;
  const control = (c: string) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;
  for (const s of segs) if (s === '..' || s.startsWith('.') || s.includes('\\') || [...s].some(control)) return null;
  return segs.join('/').normalize('NFC');
}

/** The file or folder at `rel`, or null when absent, special, or reached through a symlink (invisible). */
export async function statEntry(vault: string, rel: string): Promise<Entry | null> {
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

export function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): number {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
  return status;
}
