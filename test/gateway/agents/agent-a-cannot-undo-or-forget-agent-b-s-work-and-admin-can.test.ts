// vault_undo_last and memory_forget act on the caller's own commits and facts: agent A cannot take back agent B's
// write or forget B's fact, by any argument; an admin credential can do both.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { alphaBetaBoss, commits, toolAs } from './helpers.js';
import { httpCall } from '../../helpers/daemon.js';

t.test("agent A cannot undo or forget agent B's work; admin can", async (t) => {
  const { s, alpha: a, beta: b, boss: admin } = await alphaBetaBoss(t);
  const url = s.d.url;

  t.equal((await toolAs(url, b, 'vault_write', { path: 'Inbox/B.md', content: '# B wrote this\n' })).status, 200);
  const fact = await toolAs(url, b, 'memory_remember', { content: 'beta likes herons', wait_indexed: true });
  t.equal(fact.status, 200);
  const factId = fact.body.fact_id as string;

  // A's own undo finds nothing of A's; asking for anyone's change needs admin; the header cannot pose as beta
  t.equal((await toolAs(url, a, 'vault_undo_last', {})).body.error.reason, 'nothing_to_undo');
  t.equal(
    (await toolAs(url, a, 'vault_undo_last', {}, 'beta')).body.error.reason,
    'nothing_to_undo',
    'X-Memvault-Agent: beta changes nothing',
  );
  const others = await toolAs(url, a, 'vault_undo_last', { only_mine: false });
  t.equal(others.status, 403);
  t.equal(others.body.error.reason, 'forbidden');
  const forget = await toolAs(url, a, 'memory_forget', { fact_id: factId });
  t.equal(forget.status, 403, "A cannot forget B's fact by id");
  t.equal((await toolAs(url, a, 'memory_forget', { query: 'beta likes herons', confirm: true })).status, 403, 'nor by query');
  t.equal(readFileSync(path.join(s.v.dir, 'Inbox/B.md'), 'utf8'), '# B wrote this\n', "B's note stands");

  // admin: forgets B's fact, and undoes anyone's last change (the forget itself, then B's remember)
  const f = await toolAs(url, admin, 'memory_forget', { fact_id: factId });
  t.equal(f.status, 200);
  t.match(f.body.forgotten, [{ fact_id: factId }]);
  t.equal(commits(s.v.dir)[0]!.agent, 'boss');
  const u = await toolAs(url, admin, 'vault_undo_last', { only_mine: false });
  t.equal(u.status, 200, 'admin undoes the last change, whoever made it');

  // B undoes its own write
  const own = await toolAs(url, b, 'vault_undo_last', {});
  t.equal(own.status, 200);
});

t.test("agent A cannot forget agent B's episode; B and admin can", async (t) => {
  const { s, alpha: a, beta: b, boss: admin } = await alphaBetaBoss(t);
  const post = (tok: string, id: string) =>
    httpCall(
      s.d.url,
      'POST',
      '/v1/episodes',
      { episodes: [{ type: 'task', task_id: id, title: `Ring the ${id} heron`, status: 'open' }] },
      { token: tok, agent: 'alpha' },
    );
  t.equal((await post(b, 'T-1')).status, 200);
  t.equal((await post(b, 'T-2')).status, 200);
  await s.d.daemon.whenCaughtUp();

  const refused = await toolAs(s.d.url, a, 'memory_forget', { episode_id: 'task:T-1' });
  t.equal(refused.status, 403, 'the header naming alpha does not make it alpha’s');
  t.equal(refused.body.error.reason, 'forbidden');
  t.match((await toolAs(s.d.url, b, 'memory_forget', { episode_id: 'task:T-1' })).body, { forgotten: [{ episode_id: 'task:T-1' }] });
  t.match((await toolAs(s.d.url, admin, 'memory_forget', { episode_id: 'task:T-2' })).body, { forgotten: [{ episode_id: 'task:T-2' }] });
});
