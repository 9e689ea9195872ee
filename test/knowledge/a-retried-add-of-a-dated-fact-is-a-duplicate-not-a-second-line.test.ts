// memory_add_fact skips a near-duplicate of a fact current now (noop_dup). A fact dated to begin later (next
// month's move) or ended already is not current now, so an agent retrying the same add (a timeout, a second run of
// the nightly extraction) wrote the line again each time: two `- works_at:: Northwind [from:: …]` lines, the second
// "superseding" the old job a second time. A fact is now also a duplicate of what holds when it begins. A real daemon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('adding the same dated fact twice writes one line', async (t) => {
  const s = await startToolDaemon({ 'People/Ben.md': '# Ben\n\n## Facts\n\n- works_at:: Acme\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const note = () => readFileSync(path.join(s.v.dir, 'People/Ben.md'), 'utf8');
  const commits = () => Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());
  const count = (re: RegExp) =>
    note()
      .split('\n')
      .filter((l) => re.test(l)).length;

  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a single-valued fact that begins later', { predicate: 'works_at', object: 'Northwind', valid_from: '2100-01-01' }, /Northwind/],
    ['a multi-valued fact that begins later', { predicate: 'speaks', object: 'Polish', valid_from: '2100-01-01' }, /Polish/],
    ['a fact that ended already', { predicate: 'likes', object: 'jazz', valid_from: '2000-01-01', valid_until: '2001-01-01' }, /jazz/],
  ];
  for (const [what, args, re] of cases) {
    const first = await d.tool('memory_add_fact', { subject: 'Ben', ...args }, 'agent-a');
    t.equal(first.status, 200, JSON.stringify(first.body));
    t.match(first.body.outcome, /added|superseded/, what);
    const c = commits();
    const again = await d.tool('memory_add_fact', { subject: 'Ben', ...args }, 'agent-a');
    t.equal(again.status, 200, JSON.stringify(again.body));
    t.match(again.body, { outcome: 'noop_dup', commit: null, fact: { id: first.body.id } }, `${what}: the retry is noop_dup`);
    t.equal(count(re), 1, `${what}: one line`);
    t.equal(commits(), c, `${what}: no commit`);
  }
  t.match(note(), '- works_at:: Acme [until:: 2100-01-01]\n', 'the old job ended once, when the new one begins');
});
