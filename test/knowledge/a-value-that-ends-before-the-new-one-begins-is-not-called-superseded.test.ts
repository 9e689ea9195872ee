// memory_add_fact answers `superseded` with the ids of the values the new one ended (their lines got [until::]). A
// value that already ends before the new one begins is left as it is, yet it was listed as superseded (outcome
// "superseded", superseded: [its id], the commit's reason "supersede …") though its line was not touched. Now only
// the values whose line the add edited are listed, and such an add is `added`. A real daemon over HTTP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('a value ending before the new one begins is not reported superseded', async (t) => {
  const s = await startToolDaemon({ 'People/Eve.md': '# Eve\n\n## Facts\n\n- works_at:: Acme [until:: 2100-01-01]\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const note = () => readFileSync(path.join(s.v.dir, 'People/Eve.md'), 'utf8');

  const add = await d.tool('memory_add_fact', { subject: 'Eve', predicate: 'works_at', object: 'Initech', valid_from: '2100-06-01' });
  t.equal(add.status, 200, JSON.stringify(add.body));
  t.match(add.body, { outcome: 'added', superseded: [] });
  t.equal(note(), '# Eve\n\n## Facts\n\n- works_at:: Acme [until:: 2100-01-01]\n- works_at:: Initech [from:: 2100-06-01]\n');
  t.match(git(s.v.dir, 'log', '-1', '--format=%B'), /Memvault-Reason: add fact Eve: works_at:: Initech/);

  // a value still holding when the new one begins is ended, and listed
  const acme = (await d.tool('memory_facts', { entity: 'Eve', predicate: 'works_at' })).body.facts[0];
  t.match(acme, { object: 'Acme' });
  const next = await d.tool('memory_add_fact', { subject: 'Eve', predicate: 'works_at', object: 'Globex' });
  t.equal(next.status, 200, JSON.stringify(next.body));
  t.match(next.body, { outcome: 'superseded', superseded: [acme.id] });
  t.notMatch(note(), 'Acme [until:: 2100-01-01]', 'its end moved to when Globex begins');
});
