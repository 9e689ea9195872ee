// A fact is temporary (it never supersedes) when its line says `[temporary:: true]` or its predicate is one of
// knowledge.temporary (default staying_in, visiting): memory_add_fact took it so, but the fact tools' answers said
// `temporary: false` for a `visiting::` line without the flag, and memory_context left out its "(temporary)". Now
// every answer says what adding takes. A real daemon over HTTP.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

type Fact = { predicate: string; object: string; temporary: boolean };
const pick = (facts: Fact[]) => facts.map((f) => [f.predicate, f.object, f.temporary]);

t.test('a configured temporary predicate is temporary in every fact answer', async (t) => {
  const note = '# Ana\n\n## Facts\n\n- visiting:: Oslo\n- staying_in:: Paris [temporary:: true]\n- works_at:: Acme\n';
  const { d } = await daemonOn(t, { 'People/Ana.md': note });
  const want = [
    ['visiting', 'Oslo', true],
    ['staying_in', 'Paris', true],
    ['works_at', 'Acme', false],
  ];
  const facts = await d.tool('memory_facts', { entity: 'Ana' });
  t.equal(facts.status, 200, JSON.stringify(facts.body));
  t.same(pick(facts.body.facts).sort(), [...want].sort(), 'memory_facts');
  const timeline = await d.tool('memory_timeline', { entity: 'Ana' });
  t.same(pick(timeline.body.facts).sort(), [...want].sort(), 'memory_timeline');

  const dup = await d.tool('memory_add_fact', { subject: 'Ana', predicate: 'visiting', object: 'Oslo' });
  t.equal(dup.status, 200, JSON.stringify(dup.body));
  t.match(dup.body, { outcome: 'noop_dup', fact: { predicate: 'visiting', object: 'Oslo', temporary: true } }, 'noop_dup');

  const ctx = await d.tool('memory_context', { query: 'Ana' });
  t.equal(ctx.status, 200, JSON.stringify(ctx.body));
  const known = ctx.body.sections.find((x: { name: string }) => x.name === 'facts').items.map((i: { text: string }) => i.text);
  t.same(
    [...known].sort(),
    ['- Ana · staying_in · Paris (temporary)', '- Ana · visiting · Oslo (temporary)', '- Ana · works_at · Acme'],
    'memory_context',
  );
});
