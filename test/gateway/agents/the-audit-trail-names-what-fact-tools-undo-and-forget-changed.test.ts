// An audit line of a call that changed something names what it changed — `changed: {commit, paths, ids}` — so the
// trail alone says which fact, note, episode or commit an agent touched: memory_remember (its fact id, day log,
// commit), memory_forget of a fact and of an episode, vault_undo_last, the three knowledge fact tools, and vault_write.
import t from 'tap';
import { readAudit } from '../../../actors/gateway/agents/audit.js';
import { until } from '../../chaos/lib/daemon-process.js';
import { httpCall } from '../../helpers/daemon.js';
import { memvault } from '../../helpers/run-cli.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, toolAs } from './helpers.js';

t.test('the audit trail names what the fact tools, undo and forget changed', async (t) => {
  const s = await startToolDaemon({ 'People/Ana.md': '# Ana\n\n## Facts\n\n- lives_in:: Berlin [from:: 2026-01-01]\n' });
  t.teardown(() => s.stop());
  const tok = agent(s.cfg.data_dir, 'keeper', { scope: 'write' });
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await toolAs(s.d.url, tok, name, args);
    t.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const rem = await call('memory_remember', { content: 'Ana keeps bees on the roof', wait_indexed: true });
  const forgot = await call('memory_forget', { fact_id: rem.fact_id });
  const undo = await call('vault_undo_last', {});
  const added = await call('memory_add_fact', { subject: 'Ana', predicate: 'works_at', object: 'the apiary' });
  const inval = await call('memory_invalidate_fact', { id: added.id });
  const del = await call('memory_delete_fact', { id: inval.id });
  const wrote = await call('vault_write', { path: 'Inbox/Bees.md', content: '# Bees\n' });
  const posted = await httpCall(
    s.d.url,
    'POST',
    '/v1/episodes',
    { episodes: [{ type: 'task', task_id: 'B-1', title: 'Order a bee suit', status: 'open' }] },
    { token: tok },
  );
  t.equal(posted.status, 200);
  await s.d.daemon.whenCaughtUp();
  await call('memory_forget', { episode_id: 'task:B-1' });

  const lines = await until('every call in the audit trail', 10_000, async () => {
    const r = (await readAudit(s.cfg.data_dir, { agent: 'keeper' })).filter((e) => !e.tool.startsWith('route:'));
    return r.length >= 8 ? r : undefined;
  });
  const byTool = (tool: string) => lines.filter((e) => e.tool === tool);
  t.same(byTool('memory_remember')[0]?.changed, { commit: rem.commit, paths: [rem.path], ids: [rem.fact_id] });
  t.same(byTool('memory_forget')[0]?.changed, { commit: forgot.commit, paths: [forgot.path], ids: [rem.fact_id] });
  t.same(byTool('vault_undo_last')[0]?.changed, { commit: undo.commit, paths: undo.paths });
  t.same(byTool('memory_add_fact')[0]?.changed, { commit: added.commit, paths: ['People/Ana.md'], ids: [String(added.id)] });
  t.same(byTool('memory_invalidate_fact')[0]?.changed, {
    commit: inval.commit,
    paths: ['People/Ana.md'],
    ids: [String(added.id), String(inval.id)],
  });
  t.same(byTool('memory_delete_fact')[0]?.changed, { commit: del.commit, paths: ['People/Ana.md'], ids: [String(inval.id)] });
  t.same(byTool('vault_write')[0]?.changed, { commit: wrote.commit, paths: ['Inbox/Bees.md'] });
  t.same(byTool('memory_forget')[1]?.changed, { ids: ['task:B-1'] });

  const printed = await memvault(['audit', '--agent', 'keeper', '--config', s.cfg.config_file!, '--vault', s.v.dir]);
  t.equal(printed.code, 0, printed.stderr);
  t.match(printed.stdout, `memory_remember    ok`);
  t.match(printed.stdout, `[${rem.commit.slice(0, 10)} ${rem.fact_id} ${rem.path}]`, 'memvault audit prints what changed');
});
