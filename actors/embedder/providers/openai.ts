// Embedding provider for any OpenAI-compatible /v1/embeddings endpoint: OpenAI, Ollama, TEI, llama.cpp server.
import { z } from 'zod';
import type { ModelInfo } from '../../../messages/common.js';
import type { EmbeddingProvider, TokenCounter } from '../../../messages/embedding.js';
import { providerError, type OpenAiProviderOptions } from '../../../messages/providers.js';

const EmbeddingsResponse = z.object({
  data: z.array(
    z.object({
      embedding: z.array(z.number()),
      index: z.number().int().nonnegative().optional(), // every server we know sends it; if absent, array order
    }),
  ),
});

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 8_000;
const RETRY_AFTER_MAX_MS = 30_000; // a server asking for longer is treated as down, not waited on
const PROBE_TEXT = 'memvault probe';

/**
 * Starts a provider for an OpenAI-compatible endpoint. Probes once so a wrong URL, key or model fails now:
 * throws an Error with `code` 'endpoint_unreachable' | 'endpoint_error' | 'bad_response'.
 */
export async function createOpenAiProvider(opts: OpenAiProviderOptions): Promise<EmbeddingProvider> {
  const client = new EmbeddingsClient(opts);
  const maxTokens = positiveInt('maxTokens', opts.maxTokens ?? 512);
  const batchSize = positiveInt('batchSize', opts.batchSize ?? 64);
  if (opts.dim !== undefined) positiveInt('dim', opts.dim);

  const probe = (await client.embed([PROBE_TEXT]))[0];
  const dim = probe?.length ?? 0;
  if (dim === 0) throw providerError('bad_response', `${client.url} returned an empty vector for model ${opts.model}`);
  if (opts.dim !== undefined && dim !== opts.dim) {
    throw providerError(
      'bad_response',
      `${client.url} returns ${dim}-dim vectors for model ${opts.model} but dim is set to ${opts.dim}: fix dim or the model name`,
    );
  }
  const info: ModelInfo = { provider: 'openai', name: opts.model, version: `${client.host}/${opts.model}`, dim };
  return new OpenAiProvider(info, client, maxTokens, batchSize);
}

function positiveInt(field: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${field} must be a positive integer`);
  return v;
}

/** One POST per call, with bounded retries on 429/5xx; connection failures are not retried (the supervisor backs off). */
class EmbeddingsClient {
  readonly url: string;
  readonly host: string;
  #model: string;
  #headers: Record<string, string>;
  #timeoutMs: number;
  #retries: number;
  #sleep: (ms: number) => Promise<void>;

  constructor(opts: OpenAiProviderOptions) {
    let base: URL;
    try {
      base = new URL(opts.baseUrl);
    } catch {
      throw new RangeError(`baseUrl must be an absolute http(s) URL such as http://127.0.0.1:11434/v1, got "${opts.baseUrl}"`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new RangeError('baseUrl must use http or https');
    if (!opts.model) throw new RangeError('model must be a non-empty string');
    this.url = `${base.href.replace(/\/+$/, '')}/embeddings`;
    this.host = base.host;
    this.#model = opts.model;
    this.#headers = { 'content-type': 'application/json', ...(opts.apiKey && { authorization: `Bearer ${opts.apiKey}` }) };
    this.#timeoutMs = positiveInt('timeoutMs', opts.timeoutMs ?? 30_000);
    this.#retries = opts.retries ?? 3;
    if (!Number.isInteger(this.#retries) || this.#retries < 0) throw new RangeError('retries must be a non-negative integer');
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Unit vectors in input order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    // OpenAI rejects an empty string in `input`; a space embeds as "nothing" on every server.
    const body = JSON.stringify({ model: this.#model, input: texts.map((t) => (t === '' ? ' ' : t)) });
    for (let attempt = 0; ; attempt++) {
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const res = await fetch(this.url, { method: 'POST', headers: this.#headers, body, signal: AbortSignal.timeout(this.#timeoutMs) });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        text = await res.text();
      } catch (err) {
        throw providerError(
          'endpoint_unreachable',
          `${this.url}: ${describe(err, this.#timeoutMs)}: is the server running at that address?`,
        );
      }
      if (status >= 200 && status < 300) return this.#parse(text, texts.length);
      if ((status === 429 || status >= 500) && attempt < this.#retries) {
        await this.#sleep(backoffMs(attempt, retryAfter));
        continue;
      }
      const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      throw providerError('endpoint_error', `${this.url} answered ${status} for model ${this.#model}: ${excerpt || '(empty body)'}`);
    }
  }

  #parse(text: string, expected: number): Float32Array[] {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw providerError('bad_response', `${this.url} answered with non-JSON: ${text.slice(0, 120)}`);
    }
    const parsed = EmbeddingsResponse.safeParse(json);
    if (!parsed.success)
      throw providerError(
        'bad_response',
        `${this.url} answered without data[].embedding: is this an OpenAI-compatible embeddings endpoint?`,
      );
    const data = parsed.data.data;
    if (data.length !== expected)
      throw providerError('bad_response', `${this.url} returned ${data.length} embeddings for ${expected} inputs`);
    const out = new Array<Float32Array>(expected);
    data.forEach((d, pos) => {
      const i = d.index ?? pos;
      if (i >= expected || out[i]) throw providerError('bad_response', `${this.url} returned index ${i} twice or out of range`);
      out[i] = normalise(d.embedding);
    });
    return out;
  }
}

function backoffMs(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter); // the HTTP-date form is rare here; ignored
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_MAX_MS);
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt);
  return exp * (0.8 + Math.random() * 0.4); // jitter so several workers do not retry in lockstep
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

function normalise(v: number[]): Float32Array {
  const out = Float32Array.from(v);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.max(Math.sqrt(sum), 1e-12); // a zero vector stays zero rather than becoming NaN
  for (let d = 0; d < out.length; d++) out[d]! /= norm;
  return out;
}

class OpenAiProvider implements EmbeddingProvider {
  readonly info: ModelInfo;
  readonly tokens: TokenCounter;
  #client: EmbeddingsClient;
  #batchSize: number;
  #closed = false;

  constructor(info: ModelInfo, client: EmbeddingsClient, maxTokens: number, batchSize: number) {
    this.info = info;
    this.#client = client;
    this.#batchSize = batchSize;
    // The remote tokenizer is unknown: ~4 characters per token holds for English prose with BPE/WordPiece
    // vocabularies and undercounts code and CJK, so keep maxTokens well under the model's real window.
    this.tokens = { maxTokens, count: (text: string) => Math.ceil(text.length / 4) };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.#closed) throw new Error('openai provider is closed');
    const out: Float32Array[] = [];
    for (let k = 0; k < texts.length; k += this.#batchSize) {
      for (const v of await this.#client.embed(texts.slice(k, k + this.#batchSize))) {
        // A model swapped behind the same name must not put vectors of another size into the index.
        if (v.length !== this.info.dim) {
          throw providerError(
            'bad_response',
            `${this.#client.url} now returns ${v.length}-dim vectors; the index holds ${this.info.dim}-dim ones`,
          );
        }
        out.push(v);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.#closed = true; // fetch keeps no session open; nothing else to release
  }
}
