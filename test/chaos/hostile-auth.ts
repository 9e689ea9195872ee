// Category 6 of the hostile run: requests on every /v1 route and /mcp without a token or with a wrong one (same
// length, other length, `Bearer` casing, extra spaces, the right token in the wrong scheme or place, huge headers):
// every one must be refused 401 `unauthorized` and none served.
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { TOOL_NAMES } from '../../actors/gateway/tools/tool-def.js';
import { rawRequest, record, show, triedKind, type Tally } from './hostile-client.js';

const MAX_HEADER_BYTES = 16 * 1024; // Node's default --max-http-header-size: bigger heads get 431 from Node itself

export interface AuthCtx {
  url: string;
  token: string;
  tally: Tally;
}

export interface AuthCase {
  route: [method: string, path: string];
  how: string;
  headers: Record<string, string>;
}

function routes(): Array<[string, string]> {
  return [
    ['GET', '/v1/status'],
    ['POST', '/v1/search'],
    ['GET', '/v1/tools'],
    ...TOOL_NAMES.map((t): [string, string] => ['POST', `/v1/tools/${t}`]),
    ['POST', '/v1/context'],
    ['POST', '/v1/reconcile'],
    ['POST', '/v1/reindex'],
    ['GET', '/v1/jobs'],
    ['POST', '/v1/jobs/daily_reflection/run'],
    ['POST', '/v1/episodes'],
    ['POST', '/v1/episodes/sessions/s/close'],
    ['POST', '/v1/prune'],
    ['GET', '/v1/dream'],
    ['POST', '/v1/dream/undo'],
    ['POST', '/v1/consolidate'],
    ['POST', '/mcp'],
    ['GET', '/mcp'],
    ['GET', '/v1/nothing-here'],
    ['POST', `/v1/tools/vault_write?token=TOKEN`],
  ];
}

export function cases(token: string): fc.Arbitrary<AuthCase> {
  const wrong = (len: number) => {
    let w = randomBytes(len).toString('base64url').slice(0, len);
    if (w === token) w = `${w.slice(0, -1)}${w.endsWith('A') ? 'B' : 'A'}`;
    return w;
  };
  const scheme = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bearer ', 'Bearer\t', 'Bearer   ');
  const flipped = fc.nat({ max: token.length - 1 }).map((i) => token.slice(0, i) + (token[i] === 'x' ? 'y' : 'x') + token.slice(i + 1));
  type H = [string, Record<string, string>];
  const header: fc.Arbitrary<H> = fc.oneof<fc.Arbitrary<H>[]>(
    fc.constant<H>(['no Authorization header', {}]),
    fc
      .tuple(scheme, fc.constant(0))
      .map(([s]): H => [`${JSON.stringify(s)} + wrong token, same length`, { authorization: `${s} ${wrong(token.length)}` }]),
    fc
      .tuple(scheme, fc.integer({ min: 1, max: 200 }))
      .map(
        ([s, l]): H => [
          `${JSON.stringify(s)} + wrong token, ${l} chars`,
          { authorization: `${s} ${wrong(l === token.length ? l + 1 : l)}` },
        ],
      ),
    fc
      .tuple(scheme, flipped)
      .map(([s, t]): H => [`${JSON.stringify(s)} + token with one character changed`, { authorization: `${s} ${t}` }]),
    fc
      .tuple(scheme, fc.integer({ min: 1, max: token.length - 1 }))
      .map(([s, k]): H => [`${JSON.stringify(s)} + first ${k} characters of the token`, { authorization: `${s} ${token.slice(0, k)}` }]),
    fc
      .constantFrom('x', ' x', ',Bearer x', token)
      .map(
        (extra): H => [
          `token followed by ${JSON.stringify(extra)}`,
          { authorization: `Bearer ${token}${extra === token ? '' : extra}${extra === token ? token : ''}` },
        ],
      ),
    fc
      .constantFrom('Basic', 'Token', 'Bearer:', 'Bearer=', 'Bearertoken', 'MAC', '')
      .map(
        (s): H => [
          `the right token in the scheme ${JSON.stringify(s)}`,
          { authorization: s === 'Bearertoken' ? `Bearer${token}` : s ? `${s} ${token}` : token },
        ],
      ),
    fc.constant<H>(['the right token as a cookie', { cookie: `token=${token}` }]),
    fc.constant<H>(['the right token in another header', { 'x-memvault-token': token, 'x-api-key': token }]),
    fc.integer({ min: 1_000, max: 14_000 }).map((l): H => [`huge wrong token (${l} chars)`, { authorization: `Bearer ${wrong(l)}` }]),
    fc
      .integer({ min: MAX_HEADER_BYTES + 1, max: 40_000 })
      .map((l): H => [`header over Node's limit (${l} chars)`, { authorization: `Bearer ${'a'.repeat(l)}` }]),
  );
  return fc.tuple(fc.constantFrom(...routes()), header).map(([route, [how, headers]]) => ({ route, how, headers }));
}

/** Sends `count` unauthorised requests; each must be answered 401 `unauthorized` (431 for heads over Node's cap). */
export async function runAuth(ctx: AuthCtx, count: number, seed: number): Promise<void> {
  const all = fc.sample(cases(ctx.token), { seed, numRuns: count });
  let i = 0;
  const worker = async () => {
    while (i < all.length) {
      const c = all[i++]!;
      triedKind(ctx.tally, 'auth', c.how);
      const [method, route] = c.route;
      const body =
        method === 'POST'
          ? JSON.stringify(
              route.includes('vault_write')
                ? { path: 'Inbox/auth-bypass.md', content: 'served without a token' }
                : { query: 'seed', path: 'Inbox/seed.md' },
            )
          : undefined;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...c.headers };
      const huge = (c.headers['authorization']?.length ?? 0) > MAX_HEADER_BYTES;
      const input = `${method} ${route.replace(ctx.token, '<token>')} with ${c.how} ${show(c.headers['authorization']?.replace(ctx.token, '<token>') ?? '')}`;
      let status: number;
      let reason: string | undefined;
      try {
        const r = await rawRequest(ctx.url, method, route.replace('TOKEN', ctx.token), headers, body);
        status = r.status;
        reason = r.json?.error?.reason;
      } catch (err) {
        // Node may reset the socket on an oversized head instead of answering 431; that is a refusal too
        if (huge) {
          record(ctx.tally, 'auth', 'ok');
          continue;
        }
        record(ctx.tally, 'auth', 'crashed', `${input} → ${(err as Error).message}`);
        continue;
      }
      if (status >= 200 && status < 300) record(ctx.tally, 'auth', 'escaped', `${input} was served (${status})`);
      else if (status >= 500) record(ctx.tally, 'auth', 'crashed', `${input} → ${status}`);
      else if (huge ? status === 431 : status === 401 && reason === 'unauthorized') record(ctx.tally, 'auth', 'ok');
      else record(ctx.tally, 'auth', 'wrongReason', `${input} → ${status} ${reason ?? ''}, expected ${huge ? 431 : '401 unauthorized'}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}
