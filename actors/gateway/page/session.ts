// Login for the status page without a token in any page or URL that outlives the login: a one-time login code
// (signed with a key derived from the API token, valid 10 minutes) is exchanged at /login for a session cookie
// (HttpOnly, SameSite=Strict, signed likewise, 12 hours). Both are HMACs, so main and the CLI mint codes without
// asking the gateway, and a restarted gateway still knows its sessions. Codes are one-time per gateway incarnation.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LOGIN_CODE_MS = 10 * 60_000;
export const SESSION_MS = 12 * 3_600_000;
export const SESSION_COOKIE = 'memvault_session';

const key = (token: string, purpose: 'login' | 'session') => createHmac('sha256', token).update(`memvault-${purpose}`).digest();

function sign(token: string, purpose: 'login' | 'session', expires: number): string {
  const nonce = randomBytes(12).toString('base64url');
  const body = `${expires.toString(36)}.${nonce}`;
  return `${body}.${createHmac('sha256', key(token, purpose)).update(body).digest('base64url')}`;
}

type Checked = { ok: true; nonce: string } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

function check(token: string, purpose: 'login' | 'session', value: string, now: number): Checked {
  const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return { ok: false, reason: 'malformed' };
  // compared as the text issued, not as decoded bytes: the 43rd character carries 2 bits decoding ignores, so a
  // byte comparison would take 4 spellings of every signature
  const want = Buffer.from(createHmac('sha256', key(token, purpose)).update(`${m[1]}.${m[2]}`).digest('base64url'));
  const got = Buffer.from(m[3]!);
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, reason: 'bad_signature' };
  if (Number.parseInt(m[1]!, 36) <= now) return { ok: false, reason: 'expired' };
  return { ok: true, nonce: m[2]! };
}

/** A one-time login link for the daemon at `baseUrl` (what `memvault open` and `make run`'s banner print). */
export function loginLink(baseUrl: string, token: string, now = Date.now()): string {
  return `${baseUrl.replace(/\/$/, '')}/login?code=${sign(token, 'login', now + LOGIN_CODE_MS)}`;
}

/** The gateway's side: redeems login codes (each once) and checks session cookies. */
export class Sessions {
  readonly #token: string;
  readonly #now: () => number;
  /** Redeemed codes' nonces with their expiry: a code works once (dropped once it would have expired anyway). */
  readonly #used = new Map<string, number>();

  constructor(token: string, now: () => number = Date.now) {
    this.#token = token;
    this.#now = now;
  }

  /** Redeems a login code: the new session cookie's value, or why not. */
  redeem(code: string): { ok: true; cookie: string } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'used' } {
    const now = this.#now();
    for (const [n, exp] of this.#used) if (exp <= now) this.#used.delete(n);
    const c = check(this.#token, 'login', code, now);
    if (!c.ok) return c;
    if (this.#used.has(c.nonce)) return { ok: false, reason: 'used' };
    this.#used.set(c.nonce, now + LOGIN_CODE_MS);
    return { ok: true, cookie: sign(this.#token, 'session', now + SESSION_MS) };
  }

  /** Whether the request's Cookie header holds a live session. */
  valid(cookieHeader: string | undefined): boolean {
    const v = readCookie(cookieHeader, SESSION_COOKIE);
    return v !== null && check(this.#token, 'session', v, this.#now()).ok;
  }
}

export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

export function sessionCookie(value: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure ? '; Secure' : ''}`;
}
