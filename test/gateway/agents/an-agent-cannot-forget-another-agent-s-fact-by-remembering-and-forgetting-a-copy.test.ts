// A tombstone forgets a fact's text on every day, so an agent that remembers another agent's older fact again today
// and forgets its own copy must be refused: the other agent's fact stays found and no tombstone is written. An admin
// may still forget it, and an agent's own fact that no one else logged is forgotten as before.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, commits, toolAs } from './helpers.js';

const BETA_LOG = '# 2026-01-05\n\n## 10:00 — beta\n- Beta keeps the heron feeder key\n';

t.test("an agent cannot forget another agent's fact by remembering and forgetting a copy of it", async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n', 'Memory/Log/2026-01-05.md': BETA_LOG });
  t.teardown(() => s.stop());
  const alpha = agent(s.cfg.data_dir, 'alpha', { scope: 'write' });
  const boss = agent(s.cfg.data_dir, 'boss', { scope: 'admin' });
  const url = s.d.url;
  const found = async () =>
    (await s.d.search('heron feeder key', { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.fact_id as string);

  const betaIds = await found();
  t.equal(betaIds.length, 1, "beta's fact is indexed");
  const betaId = betaIds[0]!;
  t.match(betaId, /^2026-01-05#/);

  const copy = await toolAs(url, alpha, 'memory_remember', { content: 'Beta keeps the heron feeder key.', wait_indexed: true });
  t.equal(copy.status, 200);
  t.equal(copy.body.fact_id.slice(10), betaId.slice(10), 'the same text has the same hash on another day');

  const refused = await toolAs(url, alpha, 'memory_forget', { fact_id: copy.body.fact_id });
  t.equal(refused.status, 403, JSON.stringify(refused.body));
  t.equal(refused.body.error.reason, 'forbidden');
  t.equal(
    refused.body.error.message,
    `forgetting ${copy.body.fact_id} would also forget ${betaId} (the same fact, remembered by another agent); only an admin credential may forget it`,
    'the refusal names the fact it would also forget',
  );
  t.same((await found()).sort(), [betaId, copy.body.fact_id].sort(), "beta's fact and alpha's copy are both still found");
  t.notOk(existsSync(path.join(s.v.dir, 'Memory/tombstones.jsonl')), 'no tombstone was written');
  t.match(commits(s.v.dir)[0]!.subject, /remember/, 'no forget commit');

  const own = await toolAs(url, alpha, 'memory_remember', { content: 'Alpha counted nine herons', wait_indexed: true });
  t.equal((await toolAs(url, alpha, 'memory_forget', { fact_id: own.body.fact_id })).status, 200, 'its own fact alone is forgotten');

  const admin = await toolAs(url, boss, 'memory_forget', { fact_id: copy.body.fact_id });
  t.equal(admin.status, 200, 'an admin may forget it');
  t.same(await found(), [], 'then neither copy is found');
});
