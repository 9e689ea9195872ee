// The knowledge tools carry an agent's own --sensitive grant, as vault_write does: an agent holding it adds, ends and
// deletes facts in a sensitive note (its frontmatter kept); an agent without it is refused `sensitive` and is never
// shown a sensitive fact — not even as the noop_dup answer to a guess of its value — and nothing is written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';
import { agent, toolAs } from '../gateway/agents/helpers.js';

const CREDS = '---\nsensitive: true\n---\n# Creds\n\nStaging only.\n\n## Facts\n\n- db_password:: hunter2 staging secret\n';

t.test('the fact tools hold an agent to its sensitive grant', async (t) => {
  const s = await startToolDaemon({ 'Projects/Creds.md': CREDS });
  t.teardown(() => s.stop());
  const plain = agent(s.cfg.data_dir, 'plain', { scope: 'write' });
  const keeper = agent(s.cfg.data_dir, 'keeper', { scope: 'write', sensitive: true });
  const url = s.d.url;
  const note = () => readFileSync(path.join(s.v.dir, 'Projects/Creds.md'), 'utf8');
  const commits = () => Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());

  // without the grant: a guess of the value is refused like any write, and the answer holds nothing of the note
  const c0 = commits();
  for (const object of ['hunter2 staging secret', 'letmein']) {
    const guess = await toolAs(url, plain, 'memory_add_fact', { subject: 'Creds', predicate: 'db_password', object });
    t.equal(guess.status, 403, JSON.stringify(guess.body));
    t.equal(guess.body.error.reason, 'sensitive');
    t.notMatch(JSON.stringify(guess.body), 'hunter2', 'the sensitive value is not in the answer');
  }
  t.same((await toolAs(url, plain, 'memory_facts', { entity: 'Creds' })).body.facts, [], 'nor listed');
  t.equal(commits(), c0, 'nothing was written');
  t.equal(note(), CREDS);

  // with the grant: add, end and delete, each a commit, the frontmatter kept
  const facts = (await toolAs(url, keeper, 'memory_facts', { entity: 'Creds' })).body.facts;
  t.match(facts, [{ predicate: 'db_password', object: 'hunter2 staging secret' }]);
  const add = await toolAs(url, keeper, 'memory_add_fact', { subject: 'Creds', predicate: 'rotated_on', object: 'Mondays' });
  t.equal(add.status, 200, JSON.stringify(add.body));
  t.match(add.body, { outcome: 'added', path: 'Projects/Creds.md' });
  t.match(note(), /^---\nsensitive: true\n---\n[\s\S]*- db_password:: hunter2 staging secret\n- rotated_on:: Mondays\n$/);
  const end = await toolAs(url, keeper, 'memory_invalidate_fact', { id: facts[0].id, at: '2026-01-02' });
  t.equal(end.status, 200, JSON.stringify(end.body));
  t.match(note(), '- db_password:: hunter2 staging secret [until:: 2026-01-02]\n');
  const now = (await toolAs(url, keeper, 'memory_timeline', { entity: 'Creds' })).body.facts;
  const rotated = now.find((f: { predicate: string; invalidated_at: string | null }) => f.predicate === 'rotated_on' && !f.invalidated_at);
  const del = await toolAs(url, keeper, 'memory_delete_fact', { id: rotated.id });
  t.equal(del.status, 200, JSON.stringify(del.body));
  t.notMatch(note(), 'rotated_on');
  t.equal(commits(), c0 + 3, 'one commit each');
});
