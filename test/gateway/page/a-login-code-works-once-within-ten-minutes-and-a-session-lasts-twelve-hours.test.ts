// Login codes and session cookies on an injected clock: a code works once and only before it expires, a session
// cookie is valid until its expiry, and anything signed with another token or altered is refused.
import t from 'tap';
import {
  LOGIN_CODE_MS,
  loginLink,
  readCookie,
  SESSION_COOKIE,
  SESSION_MS,
  sessionCookie,
  Sessions,
} from '../../../actors/gateway/page/session.js';

const TOKEN = 'a-token-of-forty-three-characters-xxxxxxxxx';
const codeOf = (link: string) => new URL(link).searchParams.get('code')!;

t.test('a code works once, and not after ten minutes', async (t) => {
  let now = 1_000_000;
  const s = new Sessions(TOKEN, () => now);
  const code = codeOf(loginLink('http://127.0.0.1:7411/', TOKEN, now));
  const first = s.redeem(code);
  t.equal(first.ok, true);
  t.same(s.redeem(code), { ok: false, reason: 'used' }, 'twice: refused');
  const late = codeOf(loginLink('http://127.0.0.1:7411', TOKEN, now));
  now += LOGIN_CODE_MS;
  t.same(s.redeem(late), { ok: false, reason: 'expired' });
  t.same(s.redeem(codeOf(loginLink('http://x', 'another token', now))), { ok: false, reason: 'bad_signature' });
  t.same(s.redeem('nonsense'), { ok: false, reason: 'malformed' });
  t.same(s.redeem(''), { ok: false, reason: 'malformed' });
});

t.test('a session cookie is valid for twelve hours and only as signed', async (t) => {
  let now = 5_000_000;
  const s = new Sessions(TOKEN, () => now);
  const r = s.redeem(codeOf(loginLink('http://h', TOKEN, now)));
  if (!r.ok) throw new Error('no session');
  const header = `other=1; ${SESSION_COOKIE}=${r.cookie}`;
  t.equal(readCookie(header, SESSION_COOKIE), r.cookie);
  t.equal(s.valid(header), true);
  t.equal(s.valid(undefined), false);
  // every other last character, including the 3 that differ only in the 2 bits base64url decoding ignores
  const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const taken = [...B64URL].filter((c) => c !== r.cookie.at(-1) && s.valid(`${SESSION_COOKIE}=${r.cookie.slice(0, -1)}${c}`));
  t.same(taken, [], 'altered: no other spelling of the signature is taken');
  t.equal(new Sessions('another token', () => now).valid(header), false, 'another daemon');
  t.equal(s.valid(`${SESSION_COOKIE}=${codeOf(loginLink('http://h', TOKEN, now))}`), false, 'a login code is not a session');
  now += SESSION_MS - 1;
  t.equal(s.valid(header), true);
  now += 1;
  t.equal(s.valid(header), false, 'expired');
  t.match(sessionCookie(r.cookie, false), /; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  t.match(sessionCookie(r.cookie, true), /; Secure$/);
});
