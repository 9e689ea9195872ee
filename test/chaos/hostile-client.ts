// How the hostile run talks to the daemon: raw HTTP (any bytes, any headers), tool calls over HTTP JSON and MCP,
// and delete/move sent to the git writer as the gateway would send them — plus the tally every probe reports into.
import http from 'node:http';
import type { Daemon } from '../../main/daemon.js';
import type { MutationResult, VaultOp } from '../../messages/vault-ops.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

// no keep-alive: a reused socket the server just closed as idle would look like a dropped request
const agent = new http.Agent({ keepAlive: false });

/** One HTTP request with exactly these bytes and headers (fetch would refuse or rewrite many of them). */
export function rawRequest(
  base: string,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: Buffer | string,
  retried = false,
): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: route,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON: left null */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // a kept-alive socket the server closed as idle just as we reused it: the request never reached the server
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(rawRequest(base, method, route, headers, body, true));
      else reject(err);
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface Client {
  url: string;
  token: string;
  /** POST /v1/tools/<name> with a JSON value or the raw body given. */
  tool(name: string, body: unknown, opts?: { raw?: Buffer | string; agentName?: string }): Promise<RawResponse>;
  /** tools/call over /mcp (JSON-RPC, stateless). */
  mcp(name: string, args: unknown, opts?: { raw?: Buffer | string }): Promise<RawResponse>;
  /** A delete or move through the one mutation path, as a gateway tool would send it. */
  mutate(op: VaultOp): Promise<MutationResult>;
}

export function makeClient(daemon: Daemon, url: string, token: string): Client {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let rpc = 1;
  return {
    url,
    token,
    tool(name, body, opts = {}) {
      const headers: Record<string, string> = { ...auth, 'x-memvault-agent': opts.agentName ?? 'hostile' };
      return rawRequest(url, 'POST', `/v1/tools/${encodeURIComponent(name)}`, headers, opts.raw ?? JSON.stringify(body));
    },
    mcp(name, args, opts = {}) {
      const headers = { ...auth, accept: 'application/json, text/event-stream', 'x-memvault-agent': 'hostile-mcp' };
      const body = opts.raw ?? JSON.stringify({ jsonrpc: '2.0', id: rpc++, method: 'tools/call', params: { name, arguments: args } });
      return rawRequest(url, 'POST', '/mcp', headers, body);
    },
    async mutate(op) {
      const git = daemon.handles.git;
      if (!git) throw new Error('no git writer: the hostile run needs writes enabled');
      return git.request<MutationResult>({ type: 'git.mutate', op, caller: { agent: 'hostile', mayReadSensitive: false } }, null);
    },
  };
}

/** What one probe found. `reason` is what came back (a reason code, `ok`, or an HTTP status). */
export interface Tally {
  tried: number;
  byCategory: Record<string, number>;
  escaped: number;
  crashed: number;
  wrongReason: number;
  problems: string[];
  /** Per category, how many inputs of each kind were tried (hostile-kinds.ts: every kind must be among them). */
  kinds: Record<string, Record<string, number>>;
}

export function newTally(): Tally {
  return { tried: 0, byCategory: {}, escaped: 0, crashed: 0, wrongReason: 0, problems: [], kinds: {} };
}

/** The kind of one input: its generator's `how` with quoted samples, numbers and byte sizes folded. */
export function kindOf(how: string): string {
  return how
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/<\d+ bytes: [0-9a-f]*…>/g, '<bytes>')
    .replace(/\b0x[0-9a-f]+\b/g, '0x…')
    .replace(/\b\d+\b/g, 'N');
}

/** The kind of a paths input: the path's generator arm and the operation it went to (legal names run a chain). */
export function pathKind(how: string, op: string, legal: boolean): string {
  return legal ? `${kindOf(how)}: write → read → move → delete` : `${kindOf(how)}: ${op}`;
}

/** Counts one input whose generator called it `how` as tried in `category` (under its kind, `kindOf`). */
export function triedKind(t: Tally, category: string, how: string): void {
  const kind = kindOf(how);
  const kinds = t.kinds[category] ?? {};
  kinds[kind] = (kinds[kind] ?? 0) + 1;
  t.kinds[category] = kinds;
}

export const MAX_PROBLEMS = 20;

/** Shortens an input for a problem line: long runs are summarised, control characters made visible. */
export function show(v: unknown): string {
  const s = typeof v === 'string' ? v : Buffer.isBuffer(v) ? `<${v.length} bytes: ${v.subarray(0, 40).toString('hex')}…>` : safeJson(v);
  const vis = JSON.stringify(s.length > 160 ? `${s.slice(0, 100)}…(${s.length} chars)…${s.slice(-40)}` : s);
  return vis;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function record(t: Tally, category: string, kind: 'ok' | 'escaped' | 'crashed' | 'wrongReason', detail?: string): void {
  t.tried++;
  t.byCategory[category] = (t.byCategory[category] ?? 0) + 1;
  if (kind === 'ok') return;
  t[kind]++;
  if (process.env['HOSTILE_DEBUG']) process.stderr.write(`hostile problem: [${category}] ${kind}: ${detail ?? ''}\n`);
  if (t.problems.length < MAX_PROBLEMS) t.problems.push(`[${category}] ${kind}: ${detail ?? ''}`);
}

/** The reason code of a tool answer over HTTP JSON or MCP, `ok` for a success, or `http <status>`. */
export function reasonOf(r: RawResponse, via: 'http' | 'mcp'): string {
  if (via === 'http') {
    if (r.status === 200) return 'ok';
    return typeof r.json?.error?.reason === 'string' ? r.json.error.reason : `http ${r.status}`;
  }
  if (r.status !== 200) return typeof r.json?.error?.reason === 'string' ? r.json.error.reason : `http ${r.status}`;
  if (r.json?.error) return `rpc ${r.json.error.code}`;
  const sc = r.json?.result?.structuredContent;
  if (r.json?.result?.isError) return typeof sc?.error?.reason === 'string' ? sc.error.reason : 'rpc isError';
  return sc ? 'ok' : 'rpc ?';
}
