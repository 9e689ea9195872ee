// WebDAV class 2 locks, kept in the gateway's memory and, when given a store, on disk (dav-state.ts: a gateway restart
// keeps them until their timeout): exclusive and shared write locks of depth 0 or infinity, refresh, UNLOCK, and the If header (tagged and untagged lists, Not,
// lock tokens and ETags) that writes must satisfy — a false If is 412, a lock whose token was not given is 423.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DAV_PREFIX, davPath, etagOf, xmlEsc, type Entry } from './dav-paths.js';
import type { Persisted } from './dav-state.js';

export interface Lock {
  token: string;
  root: string; // vault-relative
  deep: boolean;
  exclusive: boolean;
  owner: string; // the <D:owner> element as sent, or ''
  timeoutS: number;
  expires: number;
}

const MAX_TIMEOUT_S = 3600;
const covers = (l: Lock, rel: string) => l.root === rel || (l.deep && (l.root === '' || rel.startsWith(`${l.root}/`)));

/** `Timeout: Second-600, Infinite` → seconds, capped at an hour. */
export function timeoutOf(h: string | undefined): number {
  const m = /Second-(\d+)/i.exec(h ?? '');
  return Math.min(MAX_TIMEOUT_S, m ? Number(m[1]) : MAX_TIMEOUT_S);
}

interface Cond {
  not: boolean;
  token?: string;
  etag?: string;
}
interface IfList {
  tag: string | null; // vault-relative path of a tagged list, null for the request's resource
  conds: Cond[];
}

/** Parses an If header into its lists; null when it is malformed (answered 400). */
export function parseIf(h: string): IfList[] | null {
  const out: IfList[] = [];
  let tag: string | null = null;
  const re = /\s*(?:<([^>]*)>|\(([^)]*)\))/y;
  let i = 0;
  while (i < h.length) {
    if (h.slice(i).trim() === '') break;
    re.lastIndex = i;
    const m = re.exec(h);
    if (!m) return null;
    i = re.lastIndex;
    if (m[1] !== undefined) {
      let p: string;
      try {
        p = new URL(m[1], 'http://x').pathname;
      } catch {
        return null;
      }
      tag = p.startsWith(DAV_PREFIX) ? davPath(p) : null;
      continue;
    }
    const conds: Cond[] = [];
    const cre = /\s*(Not\s+)?(?:<([^>]*)>|\[([^\]]*)\])/iy;
    const body = m[2] ?? '';
    let j = 0;
    while (j < body.length && body.slice(j).trim() !== '') {
      cre.lastIndex = j;
      const c = cre.exec(body);
      if (!c) return null;
      j = cre.lastIndex;
      conds.push({ not: Boolean(c[1]), ...(c[2] !== undefined ? { token: c[2] } : { etag: (c[3] ?? '').replace(/^W\//, '') }) });
    }
    if (conds.length === 0) return null;
    out.push({ tag, conds });
  }
  return out;
}

export class DavLocks {
  readonly #locks = new Map<string, Lock>();
  readonly #now: () => number;
  readonly #store: Persisted<Lock[]> | undefined;

  constructor(now: () => number = Date.now, store?: Persisted<Lock[]>) {
    this.#now = now;
    this.#store = store;
    for (const l of store?.initial ?? []) this.#locks.set(l.token, l);
  }

  /** After a lock was taken, refreshed or released: the store holds the live ones. */
  #changed(): void {
    this.#store?.save(this.#live());
  }

  #live(): Lock[] {
    const now = this.#now();
    for (const [t, l] of this.#locks) if (l.expires <= now) this.#locks.delete(t);
    return [...this.#locks.values()];
  }

  /** Locks that cover `rel` (and, for a deep change, any lock below it). */
  on(rel: string, deep = false): Lock[] {
    return this.#live().filter((l) => covers(l, rel) || (deep && (rel === '' || l.root.startsWith(`${rel}/`))));
  }

  /**
   * Whether the If header holds (given `etagAt` for ETags) and every lock on the change's paths was submitted:
   * 400 (bad header), 412 (If is false), 423 (locked), or null.
   */
  async check(
    req: IncomingMessage,
    rels: { rel: string; deep: boolean }[],
    etagAt: (rel: string) => Promise<string | null>,
  ): Promise<number | null> {
    const h = req.headers.if;
    const lists = h ? parseIf(String(h)) : [];
    if (lists === null) return 400;
    const self = rels[0]?.rel ?? '';
    if (lists.length) {
      let holds = false;
      for (const l of lists) {
        let all = true;
        for (const c of l.conds) {
          const at = l.tag ?? self;
          const v = c.token !== undefined ? this.on(at).some((k) => k.token === c.token) : (await etagAt(at)) === c.etag;
          if (v === c.not) all = false;
        }
        if (all) holds = true;
      }
      if (!holds) return 412;
    }
    const given = new Set((lists ?? []).flatMap((l) => l.conds.flatMap((c) => (c.token ? [c.token] : []))));
    for (const r of rels) if (this.on(r.rel, r.deep).some((l) => !given.has(l.token))) return 423;
    return null;
  }

  /** A new lock, or the status refusing it (423 when it conflicts). */
  lock(rel: string, deep: boolean, exclusive: boolean, owner: string, timeoutS: number): Lock | 423 {
    const clash = this.on(rel, deep);
    if (clash.some((l) => l.exclusive || exclusive)) return 423;
    const l: Lock = {
      token: `urn:uuid:${randomUUID()}`,
      root: rel,
      deep,
      exclusive,
      owner,
      timeoutS,
      expires: this.#now() + timeoutS * 1000,
    };
    this.#locks.set(l.token, l);
    this.#changed();
    return l;
  }

  refresh(token: string, timeoutS: number): Lock | null {
    const l = this.#live().find((k) => k.token === token);
    if (!l) return null;
    l.timeoutS = timeoutS;
    l.expires = this.#now() + timeoutS * 1000;
    this.#changed();
    return l;
  }

  unlock(token: string): boolean {
    const had = this.#locks.delete(token);
    if (had) this.#changed();
    return had;
  }

  /** The resource at `rel` (and below) went away: its locks go too. */
  remove(rel: string): void {
    let gone = false;
    for (const l of this.#live()) if (l.root === rel || l.root.startsWith(`${rel}/`)) gone = this.#locks.delete(l.token) || gone;
    if (gone) this.#changed();
  }

  discovery(rel: string): string {
    return this.on(rel).map(activeLockXml).join('');
  }
}

export function activeLockXml(l: Lock): string {
  const href = `${DAV_PREFIX}/${l.root
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/')}`;
  return `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>${l.exclusive ? '<D:exclusive/>' : '<D:shared/>'}</D:lockscope><D:depth>${l.deep ? 'infinity' : '0'}</D:depth>${l.owner}<D:timeout>Second-${l.timeoutS}</D:timeout><D:locktoken><D:href>${xmlEsc(l.token)}</D:href></D:locktoken><D:lockroot><D:href>${xmlEsc(href)}</D:href></D:lockroot></D:activelock>`;
}

export const SUPPORTED_LOCK =
  '<D:supportedlock><D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry><D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry></D:supportedlock>';

export const etagFor = (e: Entry | null) => (e && !e.dir ? etagOf(e) : null);
