// The openai provider against a real local /v1/embeddings server: probe, batching, order by index, auth, counts.
import t from 'tap';
import { createOpenAiProvider } from '../../../actors/embedder/providers/openai.js';
import { hashVector, startEmbeddingsServer } from './helpers/embeddings-server.js';

function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function close(a: Float32Array, b: number[]): boolean {
  return a.length === b.length && b.every((x, i) => Math.abs(x - a[i]!) < 1e-6);
}

t.test('probes once at start to learn dim and reports the endpoint as version', async (t) => {
  const server = await startEmbeddingsServer(12);
  t.teardown(() => server.close());
  const p = await createOpenAiProvider({ baseUrl: `${server.baseUrl}/`, model: 'nomic-embed-text' });
  t.same(p.info, { provider: 'openai', name: 'nomic-embed-text', version: `${new URL(server.baseUrl).host}/nomic-embed-text`, dim: 12 });
  t.equal(server.requests.length, 1);
  t.equal(server.requests[0]?.model, 'nomic-embed-text');
  t.equal(server.requests[0]?.headers.authorization, undefined, 'no auth header without an apiKey');
});

t.test('splits large inputs into batchSize requests and restores order by index', async (t) => {
  const server = await startEmbeddingsServer(8);
  t.teardown(() => server.close());
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', batchSize: 4 });
  const texts = Array.from({ length: 10 }, (_, i) => `note number ${i}`);
  const vecs = await p.embed(texts);
  t.same(
    server.requests.slice(1).map((r) => r.input.length),
    [4, 4, 2],
  );
  t.same(
    server.requests.slice(1).flatMap((r) => r.input),
    texts,
    'every text sent once, in order',
  );
  t.equal(vecs.length, 10);
  const wrong = texts.filter((text, i) => !close(vecs[i]!, unit(hashVector(text, 8))));
  t.same(wrong, [], 'each text gets its own vector though the server answers in reverse');
  for (const v of vecs) t.ok(Math.abs(Math.hypot(...v) - 1) < 1e-6, 'unit length');
  t.same(await p.embed([]), []);
  t.equal(server.requests.length, 4, 'no request for an empty input');
});

t.test('sends the api key as a bearer token on every request', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'sk-test-123' });
  await p.embed(['a', 'b']);
  t.same(
    server.requests.map((r) => r.headers.authorization),
    ['Bearer sk-test-123', 'Bearer sk-test-123'],
  );
});

t.test('counts tokens as characters / 4, rounded up', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', maxTokens: 300 });
  t.equal(p.tokens.maxTokens, 300);
  t.equal(p.tokens.count('abcdefghi'), 3);
  t.equal(p.tokens.count(''), 0);
});
