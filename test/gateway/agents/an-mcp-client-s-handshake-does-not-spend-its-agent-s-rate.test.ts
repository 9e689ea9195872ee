// An agent's rate is spent per tool call. Over MCP it was spent per HTTP request, and the SDK's client makes three
// before its first call (initialize, its notification, a GET for a stream), so an agent of `--rate 3/s` or less got a
// 429 on its first call (helper-34's finding). Now only a message that calls a tool spends it; a call over the rate is
// still refused 429 (with Retry-After) and audited as rate_limited.
import t from 'tap';
import { readAudit } from '../../../actors/gateway/agents/audit.js';
import { until } from '../../chaos/lib/daemon-process.js';
import { call, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, mcpAs } from './helpers.js';

t.test('an agent of 1/h connects over MCP, calls once, and its second call is refused', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n\nsome words\n' });
  t.teardown(() => s.stop());
  const slow = agent(s.cfg.data_dir, 'slow', { scope: 'read', rate: '1/h' });
  const client = await mcpAs(s.d.url, slow);
  t.teardown(() => client.close());
  t.ok((await client.listTools()).tools.length > 0, 'tools/list does not spend the rate either');
  const first = await call(client, 'vault_read', { path: 'Inbox/Seed.md' });
  t.equal(first.isError, false, first.text);
  t.match(first.body, { path: 'Inbox/Seed.md' });
  await t.rejects(call(client, 'vault_read', { path: 'Inbox/Seed.md' }), /429|rate/, 'the second call is over the rate');
  // the trail is appended after the answer: read it until the refusal is there
  const refused = await until('the refusal in the audit trail', 10_000, async () => {
    const r = (await readAudit(s.cfg.data_dir, { agent: 'slow' })).filter((e) => e.outcome === 'rate_limited');
    return r.length > 0 ? r : undefined;
  });
  t.equal(refused.length, 1, 'audited once as rate_limited');
  t.match(refused[0], { tool: 'route:mcp', path: '/mcp' });
});
