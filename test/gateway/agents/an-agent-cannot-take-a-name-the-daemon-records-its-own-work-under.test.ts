// The owner's token records its work under `agent` (no X-Memvault-Agent header), the CLI under `cli`, the dream,
// the scheduler and curation under their own names. An agent given one of those names would own that work: undo the
// owner's writes, forget the owner's facts. So such names are refused when an agent is added, a token of one added
// before is refused at the gateway, and the owner's facts are headed by its name before the session, so a session
// id (`chat-42`) never reads as an agent's name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CURATION_AGENT } from '../../../actors/git-writer/curation-writes.js';
import { DREAM_AGENT } from '../../../actors/dream/run.js';
import { SLEEP_AGENT } from '../../../actors/scheduler/sleep/run.js';
import { addAgent, isReservedAgentName, readAgents, writeAgents } from '../../../actors/gateway/agents/store.js';
import { sanitiseAgent } from '../../../actors/gateway/tools/types.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, commits, toolAs } from './helpers.js';

t.test('the names memvault records its own work under cannot be given to an agent', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  for (const name of [sanitiseAgent(''), 'cli', 'backfill', 'status-page', DREAM_AGENT, SLEEP_AGENT, CURATION_AGENT, 'Agent', 'CLI']) {
    t.ok(isReservedAgentName(name), `${name} is reserved`);
    const r = addAgent(s.cfg.data_dir, { name, scope: 'write', folders: null, sensitive: false, rate: null }, new Date());
    t.match(r, { ok: false, reason: 'bad_request', message: /reserved/ }, `agents add ${name} is refused`);
  }
  t.equal(readAgents(s.cfg.data_dir).agents.length, 0, 'and none was added');
  t.notOk(isReservedAgentName('agent-7'), 'a name that only starts like one is free');

  // the owner writes and remembers without a header: recorded as `agent`, the fact headed `agent · chat-42`
  t.equal((await s.d.tool('vault_write', { path: 'Inbox/Owner.md', content: '# Owner wrote this\n' })).status, 200);
  const fact = await s.d.tool('memory_remember', { content: 'Alice moved to Lisbon', session_id: 'chat-42', wait_indexed: true });
  t.equal(fact.status, 200);
  t.equal(commits(s.v.dir)[0]!.agent, 'agent');
  const log = readFileSync(path.join(s.v.dir, fact.body.path as string), 'utf8');
  t.match(log, /^## \d\d:\d\d — agent · chat-42$/m, 'the header names the recorder, then the session');

  // an agent named after the session cannot forget the owner's fact
  const chat42 = agent(s.cfg.data_dir, 'chat-42', { scope: 'write', folders: ['Memory', 'Inbox'] });
  const refused = await toolAs(s.d.url, chat42, 'memory_forget', { fact_id: fact.body.fact_id });
  t.equal(refused.status, 403);
  t.equal(refused.body.error.reason, 'forbidden');

  // an agent named `agent` in agents.json from before the check: its token is refused, so it undoes nothing
  const tok = agent(s.cfg.data_dir, 'later-agent', { scope: 'write', folders: ['Inbox'] });
  const f = readAgents(s.cfg.data_dir);
  writeAgents(s.cfg.data_dir, { ...f, agents: f.agents.map((a) => (a.name === 'later-agent' ? { ...a, name: 'agent' } : a)) });
  const undo = await toolAs(s.d.url, tok, 'vault_undo_last', {});
  t.equal(undo.status, 401, 'a reserved name’s token is refused');
  t.equal(readFileSync(path.join(s.v.dir, 'Inbox/Owner.md'), 'utf8'), '# Owner wrote this\n', "the owner's note stands");
});
