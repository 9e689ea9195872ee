// README, Fact syntax: `[until:: …]` applies to every fact on its line. memory_invalidate_fact added one to the line
// of the fact it was asked to end, so on a person's prose line `She is [lives_in:: Lisbon] now, and (coffee:: flat
// white) in the morning.` ending coffee also ended lives_in; memory_delete_fact removed the whole line and both facts
// with it, and memory_add_fact's supersession of lives_in ended coffee. Each now answers `conflict` naming the other
// facts on the line, and nothing is written; a fact on a line of its own is edited as before. A real daemon over HTTP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

const DORA = '# Dora\n\nShe is [lives_in:: Lisbon] now, and (coffee:: flat white) in the morning.\n\n## Facts\n\n- likes:: jazz\n';

t.test('a fact that shares its line with others is not ended, deleted or superseded for them all', async (t) => {
  const s = await startToolDaemon({ 'People/Dora.md': DORA });
  t.teardown(() => s.stop());
  const d = s.d;
  const note = () => readFileSync(path.join(s.v.dir, 'People/Dora.md'), 'utf8');
  const commits = () => git(s.v.dir, 'rev-list', '--count', 'HEAD').trim();
  const facts = async () =>
    Object.fromEntries(
      (await d.tool('memory_facts', { entity: 'Dora' })).body.facts.map((f: { predicate: string; id: number }) => [f.predicate, f.id]),
    ) as Record<string, number>;
  const ids = await facts();
  t.ok(ids.coffee && ids.lives_in && ids.likes, 'three facts read');
  const c0 = commits();

  const inv = await d.tool('memory_invalidate_fact', { id: ids.coffee, at: '2026-01-01' }, 'agent-a');
  t.equal(inv.status, 409, JSON.stringify(inv.body));
  t.equal(inv.body.error.reason, 'conflict');
  t.match(inv.body.error.message, /line 3 of People\/Dora\.md also holds lives_in:: Lisbon: .*line of its own/);

  const del = await d.tool('memory_delete_fact', { id: ids.lives_in }, 'agent-a');
  t.equal(del.status, 409, JSON.stringify(del.body));
  t.match(del.body.error, { reason: 'conflict', message: /also holds coffee:: flat white: removing it would remove them too/ });

  const sup = await d.tool('memory_add_fact', { subject: 'Dora', predicate: 'lives_in', object: 'Porto' }, 'agent-a');
  t.equal(sup.status, 409, JSON.stringify(sup.body));
  t.match(sup.body.error, { reason: 'conflict', message: /also holds coffee:: flat white/ });

  t.equal(note(), DORA, 'the note is untouched');
  t.equal(commits(), c0, 'no commit');
  t.same(Object.keys(await facts()).sort(), ['coffee', 'likes', 'lives_in'], 'every fact still current');

  // a fact on a line of its own is ended and deleted as before
  const alone = await d.tool('memory_invalidate_fact', { id: ids.likes, at: '2026-01-01' }, 'agent-a');
  t.equal(alone.status, 200, JSON.stringify(alone.body));
  t.match(note(), '- likes:: jazz [until:: 2026-01-01]\n');
  const gone = await d.tool('memory_delete_fact', { id: alone.body.id }, 'agent-a');
  t.equal(gone.status, 200, JSON.stringify(gone.body));
  t.notMatch(note(), 'jazz');
});
