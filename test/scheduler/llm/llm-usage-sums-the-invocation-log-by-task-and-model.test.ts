// `memvault llm-usage --since 7d` sums the calls the client logged (real calls to a chat-completions server on
// loopback, plus an older day's file) by task type and model: calls, failures, tokens, cost; older calls left out.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { llmSchema } from '../../../config/schema-llm.js';
import { LlmClient } from '../../../actors/scheduler/llm/client.js';
import { InvocationLog } from '../../../actors/scheduler/llm/invocation-log.js';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { FakeLlm } from '../../helpers/fake-llm.js';
import { memvault } from '../../helpers/run-cli.js';

t.test('llm-usage sums the last 7 days of calls by task type and model', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const v = makeVault({ 'Inbox/a.md': '# a\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const client = new LlmClient(
    llmSchema.parse({
      base_url: llm.url,
      models: { default: 'llama3.1:8b', paid: 'gpt-4o-mini' },
      routes: { weekly_review: 'paid' },
      prices: { 'gpt-4o-mini': { in_per_mtok: 0.15, out_per_mtok: 0.6 } },
      max_retries: 0,
    }),
    { log: new InvocationLog(cfg.data_dir) },
  );
  const ask = (task: string) => client.chat({ taskType: task, messages: [{ role: 'user', content: 'x' }] });
  llm.script(
    { content: 'a', usage: { prompt_tokens: 1_000, completion_tokens: 100 } },
    { content: 'b', usage: { prompt_tokens: 2_000, completion_tokens: 300 } },
    { status: 500 },
    { content: 'c', usage: { prompt_tokens: 10_000, completion_tokens: 1_000 } },
  );
  await ask('daily_reflection');
  await ask('daily_reflection');
  await ask('daily_reflection'); // fails: counted, no tokens
  await ask('weekly_review');
  // a call ten days ago, in its own day's file: outside --since 7d
  const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
  mkdirSync(path.join(cfg.data_dir, 'invocations'), { recursive: true });
  writeFileSync(
    path.join(cfg.data_dir, 'invocations', `${old.slice(0, 10)}.jsonl`),
    `${JSON.stringify({ at: old, task_type: 'daily_reflection', alias: 'default', model: 'llama3.1:8b', tokens_in: 99_999, tokens_out: 1, cost_usd: 0, latency_ms: 5, attempts: 1, outcome: 'ok' })}\n{"cut short by a cra`,
  );

  const r = await memvault(['llm-usage', '--vault', v.dir, '--config', cfg.config_file!, '--since', '7d', '--json']);
  t.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const daily = out.rows.find((x: { task_type: string }) => x.task_type === 'daily_reflection');
  t.match(daily, { model: 'llama3.1:8b', calls: 3, failed: 1, tokens_in: 3_000, tokens_out: 400, cost_usd: 0 });
  const weekly = out.rows.find((x: { task_type: string }) => x.task_type === 'weekly_review');
  t.match(weekly, { model: 'gpt-4o-mini', calls: 1, failed: 0, tokens_in: 10_000, tokens_out: 1_000 });
  t.equal(weekly.cost_usd, 0.0021, '10k in at 0.15/M + 1k out at 0.60/M');
  t.equal(out.rows[0].task_type, 'weekly_review', 'the biggest spender first');
  t.match(out.total, { calls: 4, failed: 1, tokens_in: 13_000, tokens_out: 1_400 });

  const all = JSON.parse(
    (await memvault(['llm-usage', '--vault', v.dir, '--config', cfg.config_file!, '--since', '30d', '--json'])).stdout,
  );
  t.equal(all.total.calls, 5, 'the older call counts over 30 days; the cut-off line is skipped');

  const text = await memvault(['llm-usage', '--vault', v.dir, '--config', cfg.config_file!]);
  t.equal(text.code, 0);
  t.match(text.stdout, /weekly_review\s+gpt-4o-mini\s+1\s+0\s+10000\s+1000\s+0\.0021/);
  t.match(text.stdout, /\(all\)\s+\(all\)\s+4\s+1\s+13000\s+1400/);

  const bad = await memvault(['llm-usage', '--vault', v.dir, '--config', cfg.config_file!, '--since', 'last tuesday']);
  t.equal(bad.code, 2, 'a --since it cannot read is a usage error');
  t.match(bad.stderr, /--since must be like 7d/);
});
