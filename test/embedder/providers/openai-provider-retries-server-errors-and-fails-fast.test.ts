// The openai provider retries 429/5xx a bounded number of times and fails fast, with a code, on everything else.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createOpenAiProvider } from '../../../actors/embedder/providers/openai.js';
import { startEmbeddingsServer } from './helpers/embeddings-server.js';

/** An injected clock: records the backoff waits and returns at once, so no test sleeps. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('resolved, expected a rejection');
}

t.test('a 500 followed by a 200 is retried after a backoff wait', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const clock = recordingSleep();
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', sleep: clock.sleep });
  server.script.push({ status: 500, body: 'model loading' });
  const [v] = await p.embed(['hello']);
  t.equal(v?.length, 8);
  t.equal(server.requests.length, 3, 'probe, failed try, retry');
  t.equal(clock.waits.length, 1);
  t.ok(clock.waits[0]! > 0, `waited ${clock.waits[0]} ms`);
});

t.test('a 429 with Retry-After waits as long as the server asks', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const clock = recordingSleep();
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', sleep: clock.sleep });
  server.script.push({ status: 429, body: 'slow down', headers: { 'retry-after': '2' } });
  await p.embed(['hello']);
  t.same(clock.waits, [2000]);
});

t.test('retries are bounded, then endpoint_error with the status and body', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const clock = recordingSleep();
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', retries: 2, sleep: clock.sleep });
  for (let i = 0; i < 5; i++) server.script.push({ status: 503, body: '{"error":"overloaded"}' });
  const err = await rejection(p.embed(['hello']));
  t.equal(err.code, 'endpoint_error');
  t.match(err.message, /503.*overloaded/);
  t.equal(server.requests.length, 1 + 3, 'probe + first try + 2 retries');
  t.equal(clock.waits.length, 2);
  t.ok(clock.waits[1]! > clock.waits[0]!, 'backoff grows');
});

t.test('a 4xx at start fails with endpoint_error and is not retried', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const clock = recordingSleep();
  server.script.push({ status: 404, body: '{"error":"model \\"nope\\" not found, try pulling it first"}' });
  const err = await rejection(createOpenAiProvider({ baseUrl: server.baseUrl, model: 'nope', sleep: clock.sleep }));
  t.equal(err.code, 'endpoint_error');
  t.match(err.message, /404.*not found/);
  t.equal(server.requests.length, 1);
  t.same(clock.waits, []);
});

t.test('a body that is not an embeddings response fails with bad_response', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  server.script.push({ status: 200, body: '{"result":[1,2,3]}' });
  t.equal((await rejection(createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm' }))).code, 'bad_response');
  server.script.push({ status: 200, body: '<html>proxy login</html>' });
  t.equal((await rejection(createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm' }))).code, 'bad_response');
});

t.test('a dim option that disagrees with the endpoint fails at start with bad_response', async (t) => {
  const server = await startEmbeddingsServer(8);
  t.teardown(() => server.close());
  const err = await rejection(createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', dim: 384 }));
  t.equal(err.code, 'bad_response');
  t.match(err.message, /8-dim.*384/);
  const ok = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', dim: 8 });
  t.equal(ok.info.dim, 8);
});

t.test('an unreachable port fails at start with endpoint_unreachable, quickly and without retries', async (t) => {
  // A port that was just free: listen, note it, close.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  const clock = recordingSleep();
  const started = performance.now();
  const err = await rejection(
    createOpenAiProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', timeoutMs: 10_000, sleep: clock.sleep }),
  );
  t.equal(err.code, 'endpoint_unreachable');
  t.match(err.message, /ECONNREFUSED/);
  t.same(clock.waits, []);
  t.ok(performance.now() - started < 2_000, 'does not wait for the timeout');
});

t.test('a server that never answers fails with endpoint_unreachable after timeoutMs', async (t) => {
  const server = await startEmbeddingsServer();
  t.teardown(() => server.close());
  const clock = recordingSleep();
  const p = await createOpenAiProvider({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200, sleep: clock.sleep });
  server.script.push({ hang: true, status: 0, body: '' });
  const err = await rejection(p.embed(['hello']));
  t.equal(err.code, 'endpoint_unreachable');
  t.match(err.message, /no answer within 200 ms/);
  t.same(clock.waits, []);
});
