// A real HTTP server speaking the OpenAI /v1/embeddings protocol, with deterministic vectors and scripted failures.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  /** Never answer: the client's timeout must fire. The socket is closed by close(). */
  hang?: boolean;
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface EmbeddingsServer {
  baseUrl: string; // http://127.0.0.1:<port>/v1
  /** Every request received, in order. */
  requests: Array<{ headers: IncomingHttpHeaders; model: string; input: string[] }>;
  /** Replies used, one per request, before the server falls back to answering normally. */
  script: Reply[];
  /** Holds every answer from now on until the returned function is called (then they go out in order). */
  hold(): () => void;
  /**
   * Holds every answer from the first request `matches` picks on (that one included): `reached` resolves when that
   * request comes in, `release` sends the held answers in order and answers normally again.
   */
  holdFrom(matches: (input: string[]) => boolean): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

/** Raw (not normalised) vector for a text: bytes of its sha256, centred. */
export function hashVector(text: string, dim: number): number[] {
  const bytes = createHash('sha256').update(text).digest();
  return Array.from({ length: dim }, (_, i) => (bytes[i % bytes.length] ?? 0) - 127.5 + i);
}

/** Starts on 127.0.0.1, port 0. Answers in reverse order (with `index`) so clients must sort. */
export async function startEmbeddingsServer(dim = 8): Promise<EmbeddingsServer> {
  const requests: EmbeddingsServer['requests'] = [];
  const script: Reply[] = [];
  let held: Promise<void> | null = null;
  let trigger: { matches: (input: string[]) => boolean; fire(): void } | null = null;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const reply = ((): Reply => {
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') return { status: 404, body: 'not found' };
        const body = JSON.parse(raw) as { model: string; input: string[] };
        requests.push({ headers: req.headers, model: body.model, input: body.input });
        if (trigger?.matches(body.input)) {
          trigger.fire();
          trigger = null;
        }
        const scripted = script.shift();
        if (scripted) return scripted;
        const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: hashVector(text, dim) })).reverse();
        return { status: 200, body: JSON.stringify({ object: 'list', data, model: body.model }) };
      })();
      if (reply.hang) return;
      const send = () => {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      };
      if (held) void held.then(send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    hold() {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    holdFrom(matches) {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let fire!: () => void;
      const reached = new Promise<void>((r) => (fire = r));
      trigger = {
        matches,
        fire: () => {
          held = gate;
          fire();
        },
      };
      return {
        reached,
        release: () => {
          trigger = null;
          if (held === gate) held = null;
          release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
