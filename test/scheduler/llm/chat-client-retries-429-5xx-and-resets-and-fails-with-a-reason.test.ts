// The LLM client's failure handling against a real server on loopback: 429 waits what Retry-After says, 5xx and
// connection resets back off exponentially and are retried up to max_retries, while a hang past the time limit, a
// malformed answer, a refused connection, 401 and 404 end as failures with a stable reason — never a throw or a
// hang. Waits go through an injected sleep that records them, so nothing here sleeps.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import t from 'tap';
import { llmSchema } from '../../../config/schema-llm.js';
import { LlmClient } from '../../../actors/scheduler/llm/client.js';
import { InvocationLog } from '../../../actors/scheduler/llm/invocation-log.js';
import type { Invocation } from '../../../actors/scheduler/llm/types.js';
import { FakeLlm } from '../../helpers/fake-llm.js';

async function rig(t: { teardown(fn: () => unknown): void }, over: Record<string, unknown> = {}) {
  const llm = await FakeLlm.start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-llm-'));
  t.teardown(async () => {
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const slept: number[] = [];
  const client = new LlmClient(llmSchema.parse({ base_url: llm.url, models: { default: 'm' }, ...over }), {
    log: new InvocationLog(dataDir),
    sleep: async (ms) => void slept.push(ms),
    random: () => 0.5, // no jitter: the delays are exact
  });
  const logged = (): Invocation[] =>
    readdirSync(path.join(dataDir, 'invocations')).flatMap((f) =>
      readFileSync(path.join(dataDir, 'invocations', f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Invocation),
    );
  const ask = () => client.chat({ taskType: 'daily_reflection', messages: [{ role: 'user', content: 'reflect' }] });
  return { llm, client, slept, logged, ask };
}

t.test('429 waits the Retry-After seconds, then succeeds', async (t) => {
  const { llm, slept, ask, logged } = await rig(t);
  llm.script({ status: 429, retryAfter: '2' }, { content: 'done' });
  const r = await ask();
  t.equal(r.ok && r.content, 'done');
  t.equal(r.attempts, 2);
  t.same(slept, [2_000], 'waited exactly what the server asked');
  t.equal(llm.chats().length, 2);
  const [line] = logged();
  t.equal(line?.outcome, 'ok');
  t.equal(line?.attempts, 2);
  t.equal(line?.task_type, 'daily_reflection');
  t.equal(line?.model, 'm');
});

t.test('5xx and connection resets back off exponentially up to max_retries, then fail server_error', async (t) => {
  const { llm, slept, ask } = await rig(t);
  llm.script({ status: 500 }, { reset: true }, { status: 502 }, { content: 'finally' });
  const ok = await ask();
  t.equal(ok.ok && ok.content, 'finally', 'the fourth try (third retry) answers');
  t.same(slept, [500, 1_000, 2_000], 'backoff doubles from 0.5 s');
  slept.length = 0;
  llm.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
  const r = await ask();
  t.equal(r.ok, false);
  t.equal(!r.ok && r.reason, 'server_error');
  t.equal(r.attempts, 4, 'one try and max_retries (3) retries');
  t.match(!r.ok && r.message, /answered 500 4 times/);
  t.equal(llm.chats().length, 8);
});

t.test('a Retry-After longer than a minute is not waited out: rate_limited at once', async (t) => {
  const { llm, slept, ask } = await rig(t);
  llm.script({ status: 429, retryAfter: '600' });
  const r = await ask();
  t.equal(!r.ok && r.reason, 'rate_limited');
  t.same(slept, []);
  t.equal(llm.chats().length, 1);
});

t.test('a server that hangs past timeout_s fails as timeout after one try', async (t) => {
  const { llm, ask, slept, logged } = await rig(t, { timeout_s: 0.3 });
  llm.script({ hang: true });
  const t0 = performance.now();
  const r = await ask();
  const took = performance.now() - t0;
  t.equal(!r.ok && r.reason, 'timeout');
  t.ok(took >= 250 && took < 5_000, `gave up after the time limit (${Math.round(took)} ms)`);
  t.same(slept, [], 'a timeout is not retried');
  t.equal(logged()[0]?.outcome, 'timeout');
});

t.test('a malformed answer fails as bad_answer, not a crash', async (t) => {
  const { llm, ask } = await rig(t);
  llm.script({ malformed: '{"choices": [' }, { malformed: '{"id": "x", "object": "chat.completion"}' });
  const r1 = await ask();
  t.equal(!r1.ok && r1.reason, 'bad_answer');
  t.match(!r1.ok && r1.message, /not JSON/);
  const r2 = await ask();
  t.equal(!r2.ok && r2.reason, 'bad_answer');
  t.match(!r2.ok && r2.message, /choices\[0\]\.message/);
});

t.test('401 is unauthorized and 404 (a model the server lacks) is http_error, neither retried', async (t) => {
  const { llm, ask, slept } = await rig(t);
  llm.script({ status: 401, body: 'invalid api key' }, { status: 404, body: 'model "m" not found, try pulling it first' });
  const a = await ask();
  t.equal(!a.ok && a.reason, 'unauthorized');
  const b = await ask();
  t.equal(!b.ok && b.reason, 'http_error');
  t.match(!b.ok && b.message, /not found, try pulling it/);
  t.same(slept, []);
});

t.test('nothing listening: retried, then unreachable with the address', async (t) => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const slept: number[] = [];
  const client = new LlmClient(llmSchema.parse({ base_url: `http://127.0.0.1:${port}/v1`, models: { default: 'm' }, max_retries: 2 }), {
    sleep: async (ms) => void slept.push(ms),
    random: () => 0.5,
  });
  const r = await client.chat({ taskType: 'x', messages: [{ role: 'user', content: 'hi' }] });
  t.equal(!r.ok && r.reason, 'unreachable');
  t.match(!r.ok && r.message, new RegExp(`127\\.0\\.0\\.1:${port}.*ECONNREFUSED`));
  t.same(slept, [500, 1_000]);
  t.equal(r.attempts, 3);
});

t.test('no llm section: not_configured, nothing logged', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-llm-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const r = await new LlmClient(undefined, { log: new InvocationLog(dataDir) }).chat({ taskType: 'x', messages: [] });
  t.equal(!r.ok && r.reason, 'not_configured');
  t.same(readdirSync(dataDir), []);
});
