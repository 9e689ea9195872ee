// A token that was revoked, or rotated out, is still refused `unauthorized` (401), but its refusals are audited under
// the agent it belonged to — `agent: "<name>"`, `kind: "agent"`, `outcome: "revoked"` or `"rotated"` — not as
// `anonymous`, so the trail shows who is still calling with an old credential. A token no agent was ever given stays
// `anonymous`. The refusal is counted in memvault_agent_refusals_total under the agent's name.
import t from 'tap';
import { readAudit } from '../../../actors/gateway/agents/audit.js';
import { revokeAgent, rotateAgent } from '../../../actors/gateway/agents/store.js';
import { until } from '../../chaos/lib/daemon-process.js';
import { httpCall } from '../../helpers/daemon.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, toolAs } from './helpers.js';

t.test("a revoked or rotated-out token's refusals are audited under its agent's name", async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const courier = agent(s.cfg.data_dir, 'courier', { scope: 'write' });
  const scout = agent(s.cfg.data_dir, 'scout', { scope: 'read' });
  const read = (tok: string) => toolAs(s.d.url, tok, 'vault_read', { path: 'Inbox/Seed.md' });
  t.equal((await read(courier)).status, 200);
  t.equal((await read(scout)).status, 200);

  t.ok(revokeAgent(s.cfg.data_dir, 'courier', new Date()).ok);
  t.ok(rotateAgent(s.cfg.data_dir, 'scout', new Date()).ok);
  const revoked = await read(courier);
  t.equal(revoked.status, 401, 'a revoked token is still refused');
  t.equal(revoked.body.error.reason, 'unauthorized');
  t.equal((await httpCall(s.d.url, 'POST', '/v1/search', { query: 'seed' }, { token: scout })).status, 401, 'so is a rotated-out one');
  t.equal((await read(`mv_${'y'.repeat(43)}`)).status, 401);

  const lines = await until('three refusals in the audit trail', 10_000, async () => {
    const r = (await readAudit(s.cfg.data_dir, {})).filter((e) => e.outcome !== 'ok');
    return r.length >= 3 ? r : undefined;
  });
  t.match(lines, [
    { agent: 'courier', kind: 'agent', tool: 'route:tool', path: '/v1/tools/vault_read', outcome: 'revoked' },
    { agent: 'scout', kind: 'agent', tool: 'route:search', outcome: 'rotated' },
    { agent: 'anonymous', kind: 'anonymous', outcome: 'unauthorized' },
  ]);
  const metrics = await httpCall(s.d.url, 'GET', '/metrics', undefined, { token: null });
  t.ok(/memvault_agent_refusals_total\{agent="courier",reason="revoked"\} 1/.test(metrics.body), 'counted as a refusal of courier');
});
