// A real HTTP server on loopback that speaks the OpenAI chat-completions API with scripted answers — plain content,
// tool calls, 429 with Retry-After, 500, a connection reset, a hang past the client's timeout, malformed JSON — and
// records every request, so tests assert on the prompts memvault sent and on how many calls it made. It stands in
// for an external service (Ollama, llama.cpp, OpenAI), not for any part of memvault.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Scripted =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number }; finish_reason?: string }
  | {
      toolCalls: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
      content?: string | null;
      usage?: { prompt_tokens: number; completion_tokens: number };
    }
  | { status: number; body?: string; retryAfter?: string }
  | { reset: true }
  | { hang: true }
  | { malformed: string };

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (chat requests), or null. */
  body: any;
}

/** The text of every message of a recorded chat request, joined: what the model was shown. */
export function promptText(r: Recorded): string {
  return ((r.body?.messages ?? []) as Array<{ content?: string | null }>).map((m) => m.content ?? '').join('\n');
}

export class FakeLlm {
  readonly requests: Recorded[] = [];
  readonly #queue: Scripted[] = [];
  #responder: ((r: Recorded) => Scripted | undefined) | null = null;
  #waiters: Array<(r: Recorded) => void> = [];
  readonly #sockets = new Set<Socket>();
  /** What GET /v1/models answers: a status, and the model ids listed when it is 200. */
  models: { status: number; ids: string[] } = { status: 200, ids: ['fake-model'] };

  private constructor(
    readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeLlm> {
    let self: FakeLlm | null = null;
    const server = createServer((req, res) => void self!.#handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    if (typeof addr !== 'object' || !addr) throw new Error('fake LLM did not bind');
    self = new FakeLlm(server, `http://127.0.0.1:${addr.port}/v1`);
    server.on('connection', (s) => {
      self!.#sockets.add(s);
      s.on('close', () => self!.#sockets.delete(s));
    });
    return self;
  }

  /** Answers for the next chat requests, in order. */
  script(...answers: Scripted[]): this {
    this.#queue.push(...answers);
    return this;
  }

  /** Answers chat requests once the script is used up (undefined: a 500 saying nothing was scripted). */
  respond(fn: (r: Recorded) => Scripted | undefined): this {
    this.#responder = fn;
    return this;
  }

  /** Resolves with the next chat request as it arrives (before it is answered): a test awaits a run under way. */
  nextChat(): Promise<Recorded> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  chats(): Recorded[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const rec: Recorded = { method: req.method ?? 'GET', path, headers: req.headers, body };
    this.requests.push(rec);
    if (path === '/v1/models' && req.method === 'GET') {
      const m = this.models;
      json(res, m.status, m.status === 200 ? { object: 'list', data: m.ids.map((id) => ({ id, object: 'model' })) } : { error: 'no' });
      return;
    }
    if (path !== '/v1/chat/completions' || req.method !== 'POST') {
      json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      return;
    }
    const waiters = this.#waiters.splice(0);
    for (const w of waiters) w(rec);
    const a = this.#queue.shift() ?? this.#responder?.(rec) ?? { status: 500, body: 'fake-llm: no scripted answer left' };
    answer(res, a, body?.model ?? 'fake-model');
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const t = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(t)), ...headers });
  res.end(t);
}

function answer(res: ServerResponse, a: Scripted, model: string): void {
  if ('reset' in a) {
    res.socket?.resetAndDestroy(); // a TCP RST: the client sees ECONNRESET
    return;
  }
  if ('hang' in a) return; // never answers; close() ends the socket
  if ('malformed' in a) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(a.malformed);
    return;
  }
  if ('status' in a) {
    res.writeHead(a.status, { 'content-type': 'text/plain', ...(a.retryAfter !== undefined ? { 'retry-after': a.retryAfter } : {}) });
    res.end(a.body ?? `status ${a.status}`);
    return;
  }
  const usage = a.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  const message =
    'toolCalls' in a
      ? {
          role: 'assistant',
          content: a.content ?? null,
          tool_calls: a.toolCalls.map((c, i) => ({
            id: c.id ?? `call_${i}`,
            type: 'function',
            function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
          })),
        }
      : { role: 'assistant', content: a.content };
  json(res, 200, {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: 'toolCalls' in a ? 'tool_calls' : ('finish_reason' in a && a.finish_reason) || 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}
