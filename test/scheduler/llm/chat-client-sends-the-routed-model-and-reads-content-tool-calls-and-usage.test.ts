// The LLM client against a real chat-completions server on loopback: the model chosen by the task's route, the key
// from the environment, content and usage read back with the cost from llm.prices, and a tool-calling round trip
// (the assistant's tool_calls and the `tool` answers sent back) as the dream agent will use it.
import t from 'tap';
import { Registry } from 'prom-client';
import { llmSchema } from '../../../config/schema-llm.js';
import { LlmClient } from '../../../actors/scheduler/llm/client.js';
import { llmMetrics } from '../../../actors/scheduler/llm/metrics.js';
import { FakeLlm } from '../../helpers/fake-llm.js';

t.test('a call goes to the routed model with the key and comes back with content, usage and cost', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const cfg = llmSchema.parse({
    base_url: llm.url,
    api_key_env: 'TEST_LLM_KEY',
    models: { default: 'big-model', small: 'small-model' },
    routes: { commitment_log: 'small' },
    prices: { 'small-model': { in_per_mtok: 2, out_per_mtok: 10 } },
  });
  const registry = new Registry();
  const client = new LlmClient(cfg, { env: { TEST_LLM_KEY: 'sk-test' }, metrics: llmMetrics(registry) });
  llm.script({ content: 'Three commitments.', usage: { prompt_tokens: 1_000, completion_tokens: 200 } });
  const r = await client.chat({ taskType: 'commitment_log', messages: [{ role: 'user', content: 'Find commitments.' }], temperature: 0.2 });
  t.ok(r.ok, 'answered');
  if (!r.ok) return;
  t.equal(r.content, 'Three commitments.');
  t.same(r.usage, { tokensIn: 1_000, tokensOut: 200 });
  t.equal(r.alias, 'small');
  t.equal(r.model, 'small-model');
  t.equal(r.costUsd, (1_000 * 2 + 200 * 10) / 1e6, 'cost from llm.prices');
  t.equal(r.attempts, 1);
  const [req] = llm.chats();
  t.equal(req?.body.model, 'small-model', 'the route picked the model');
  t.same(req?.body.messages, [{ role: 'user', content: 'Find commitments.' }]);
  t.equal(req?.body.temperature, 0.2);
  t.notOk('tools' in (req?.body ?? {}), 'no tools offered, none sent');
  t.equal(req?.headers.authorization, 'Bearer sk-test', 'key from llm.api_key_env');

  llm.script({ content: 'ok' });
  const other = await client.chat({ taskType: 'daily_reflection', messages: [{ role: 'user', content: 'x' }] });
  t.equal(other.ok && other.model, 'big-model', 'a task without a route uses models.default');
  t.equal(other.ok && other.costUsd, 0, 'a model without a price costs 0');

  const text = await registry.metrics();
  t.match(text, /memvault_llm_calls_total\{task_type="commitment_log",model="small-model",outcome="ok"\} 1/);
  t.match(text, /memvault_llm_tokens_total\{task_type="commitment_log",model="small-model",direction="in"\} 1000/);
  t.match(text, /memvault_llm_cost_usd_total\{task_type="commitment_log",model="small-model"\} 0.004/);
  t.match(text, /memvault_llm_call_duration_seconds_count\{task_type="daily_reflection",model="big-model"\} 1/);
});

t.test('a missing key fails as unauthorized before any request', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const cfg = llmSchema.parse({ base_url: llm.url, api_key_env: 'NOT_SET_ANYWHERE', models: { default: 'm' } });
  const r = await new LlmClient(cfg, { env: {} }).chat({ taskType: 'x', messages: [{ role: 'user', content: 'hi' }] });
  t.equal(r.ok, false);
  t.equal(!r.ok && r.reason, 'unauthorized');
  t.match(!r.ok && r.message, /NOT_SET_ANYWHERE/);
  t.equal(llm.chats().length, 0, 'nothing sent');
});

t.test('tool calls come back parsed and the tool answers go out as tool messages', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const client = new LlmClient(llmSchema.parse({ base_url: llm.url, models: { default: 'm' } }));
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'memory_search',
        description: 'search the vault',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    },
  ];
  llm.script(
    { toolCalls: [{ id: 'call_a', name: 'memory_search', arguments: { query: 'Atlas cutover' } }] },
    { content: 'The cutover is on 5 December.' },
  );
  const messages = [{ role: 'user' as const, content: 'When is the Atlas cutover?' }];
  const first = await client.chat({ taskType: 'dream', messages, tools });
  t.ok(first.ok);
  if (!first.ok) return;
  t.equal(first.content, null);
  t.same(first.toolCalls, [
    { id: 'call_a', type: 'function', function: { name: 'memory_search', arguments: '{"query":"Atlas cutover"}' } },
  ]);
  t.equal(first.finishReason, 'tool_calls');
  const second = await client.chat({
    taskType: 'dream',
    tools,
    messages: [
      ...messages,
      { role: 'assistant', content: null, tool_calls: first.toolCalls },
      { role: 'tool', tool_call_id: 'call_a', content: '[{"path":"Projects/Atlas migration.md","snippet":"Saturday 2026-12-05"}]' },
    ],
  });
  t.equal(second.ok && second.content, 'The cutover is on 5 December.');
  const [r1, r2] = llm.chats();
  t.same(r1?.body.tools, tools, 'tools offered');
  t.equal(r1?.body.tool_choice, 'auto');
  t.same(
    r2?.body.messages.map((m: { role: string }) => m.role),
    ['user', 'assistant', 'tool'],
  );
  t.equal(r2?.body.messages[1].tool_calls[0].id, 'call_a');
  t.equal(r2?.body.messages[2].tool_call_id, 'call_a');
});
