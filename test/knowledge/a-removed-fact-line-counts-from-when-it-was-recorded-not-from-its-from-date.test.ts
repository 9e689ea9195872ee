// README, Facts at an instant: "a removed line counts from when it was recorded until it was removed". memory_facts
// counted a removed line from its own [from::] date instead, so a person fixing a typo in a dated fact line had both
// spellings listed for any instant in the past, and an agent's backdated value, undone at once, still won the
// single-valued answer for the weeks it claimed. A real daemon; the person's edit goes through the watcher.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { within } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

const objects = (body: { facts: Array<{ object: string }> }) => body.facts.map((f) => f.object);

t.test('a fact line fixed in place is one fact at an instant before either spelling was written', async (t) => {
  const note = '# Ana\n\n## Facts\n\n- speaks:: Portugese [from:: 2010-01-01]\n';
  const s = await startToolDaemon({ 'People/Ana.md': note });
  t.teardown(() => s.stop());
  const d = s.d;
  t.same(objects((await d.tool('memory_facts', { entity: 'Ana', predicate: 'speaks', at: '2015-01-01' })).body), ['Portugese']);

  const done = d.daemon.nextDone('People/Ana.md', 'indexed');
  writeFileSync(path.join(s.v.dir, 'People/Ana.md'), note.replace('Portugese', 'Portuguese'));
  await within(done, 30_000, 'the fixed note indexed');
  t.same(
    objects((await d.tool('memory_facts', { entity: 'Ana', predicate: 'speaks', at: '2015-01-01' })).body),
    ['Portuguese'],
    'the typo is not listed beside the fix',
  );
  t.same(objects((await d.tool('memory_facts', { entity: 'Ana', predicate: 'speaks' })).body), ['Portuguese']);

  // the removed spelling still counts while it was on the page: from when it was recorded until it was removed
  const gone = (await d.tool('memory_timeline', { entity: 'Ana' })).body.facts.find(
    (f: { object: string }) => f.object === 'Portugese',
  ) as { recorded_at: string; invalidated_at: string };
  t.ok(gone.invalidated_at, 'the typo is in the timeline, removed');
  const between = new Date((Date.parse(gone.recorded_at) + Date.parse(gone.invalidated_at)) / 2).toISOString();
  t.ok(
    objects((await d.tool('memory_facts', { entity: 'Ana', predicate: 'speaks', at: between })).body).includes('Portugese'),
    'listed at an instant between its recording and its removal',
  );
});

t.test("an agent's backdated value undone at once does not answer for the past", async (t) => {
  const s = await startToolDaemon({ 'People/Ana.md': '# Ana\n\n## Facts\n\n- lives_in:: Hamburg\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const livesIn = async (at: string) => objects((await d.tool('memory_facts', { entity: 'Ana', predicate: 'lives_in', at })).body);

  const add = await d.tool('memory_add_fact', { subject: 'Ana', predicate: 'lives_in', object: 'Lisbon', valid_from: '2000-01-01' });
  t.match(add.body, { outcome: 'superseded', indexed: true });
  t.same(await livesIn('2000-02-01'), ['Lisbon']);
  const undo = await d.tool('vault_undo_last', { wait_indexed: true });
  t.equal(undo.status, 200, JSON.stringify(undo.body));
  t.same(await livesIn('2000-02-01'), ['Hamburg'], 'what the vault says: the undone value never held');
  t.same(await livesIn('1999-02-01'), ['Hamburg']);
});
