// WebDAV basic auth against scrypt hashes from `webdav.users`. scrypt costs tens of milliseconds on purpose, and a
// sync client sends hundreds of requests: a verified header is remembered (by its sha256) for five minutes.
import { createHash, scrypt, timingSafeEqual } from 'node:crypto';
import { SCRYPT_HASH } from '../../../config/schema-webdav.js';

const REMEMBER_MS = 5 * 60_000;

export interface DavUser {
  name: string;
  password_hash: string;
}

/** `scrypt$N$r$p$salt$hash` for a password (what the README's one-liner prints; tests use it too). */
export function hashPassword(password: string, salt: Buffer, N = 16_384, r = 8, p = 1): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(`scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`),
    ),
  );
}

function verify(password: string, stored: string): Promise<boolean> {
  const m = SCRYPT_HASH.exec(stored);
  if (!m) return Promise.resolve(false);
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const want = Buffer.from(m[5]!, 'base64');
  return new Promise((resolve) =>
    scrypt(password, Buffer.from(m[4]!, 'base64'), want.length, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      resolve(!err && key.length === want.length && timingSafeEqual(key, want)),
    ),
  );
}

export class DavAuth {
  readonly #users: Map<string, string>;
  readonly #now: () => number;
  readonly #ok = new Map<string, { user: string; until: number }>();

  constructor(users: DavUser[], now: () => number = Date.now) {
    this.#users = new Map(users.map((u) => [u.name, u.password_hash]));
    this.#now = now;
  }

  /** The user an `Authorization: Basic …` header proves, or null. */
  async check(header: string | undefined): Promise<string | null> {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
    if (!m) return null;
    const key = createHash('sha256').update(m[1]!).digest('base64');
    const now = this.#now();
    const hit = this.#ok.get(key);
    if (hit && hit.until > now) return hit.user;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 1) return null;
    const [name, password] = [decoded.slice(0, i), decoded.slice(i + 1)];
    const stored = this.#users.get(name);
    if (!stored || !(await verify(password, stored))) return null;
    if (this.#ok.size > 1_000) this.#ok.clear();
    this.#ok.set(key, { user: name, until: now + REMEMBER_MS });
    return name;
  }
}
