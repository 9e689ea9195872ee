// README, Fact syntax: a fact said twice in a note (the same line twice, or in two places of it) gave two rows in
// memory_facts, and an Obsidian block id (` ^id` at the end of the line) or comment (`%%…%%`) was read into the
// value (`[[Acme]] ^t1`, no link to Acme). Now the note's first line stands for the fact, Obsidian's marks are no part
// of it, an ended copy is its own fact, and ending the fact keeps the block id last. A real daemon over HTTP.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

type Fact = { id: number; predicate: string; object: string; object_path: string | null; line: number; valid_until: string | null };

t.test('a fact said twice in a note, or marked for Obsidian, is one clean fact', async (t) => {
  const note = [
    '# Ana', // 1
    '', // 2
    '- works_at:: [[Acme]] ^t1', // 3
    '- likes:: tea %% and coffee? %%', // 4
    '- likes:: tea', // 5
    '- works_at:: [[Acme]] [until:: 2020-01-01]', // 6
    '', // 7
    '## Again', // 8
    '', // 9
    'Ana is at [works_at:: [[Acme]]] now. ^again', // 10
    '- lives_in:: Porto ^home', // 11
    '',
  ].join('\n');
  const { d } = await daemonOn(t, { 'People/Ana.md': note, 'Acme.md': '# Acme\n' });
  const facts = await d.tool('memory_facts', { entity: 'Ana' });
  t.equal(facts.status, 200, JSON.stringify(facts.body));
  const now = facts.body.facts as Fact[];
  t.same(now.map((f) => [f.predicate, f.object, f.object_path, f.line]).sort(), [
    ['likes', 'tea', null, 4],
    ['lives_in', 'Porto', null, 11],
    ['works_at', 'Acme', 'Acme.md', 3],
  ]);
  const home = now.find((f) => f.predicate === 'lives_in')!;
  const ended = await d.tool('memory_invalidate_fact', { id: home.id, at: '2026-01-01' });
  t.equal(ended.status, 200, JSON.stringify(ended.body));
  const text = await d.tool('vault_read', { path: 'People/Ana.md' });
  t.equal(text.body.content.split('\n')[10], '- lives_in:: Porto [until:: 2026-01-01] ^home', 'the block id stays last');
  const timeline = await d.tool('memory_timeline', { entity: 'Ana' });
  t.same(
    (timeline.body.facts as Fact[]).map((f) => [f.predicate, f.line, f.valid_until]).sort(),
    [
      ['likes', 4, null],
      ['lives_in', 11, null],
      ['lives_in', 11, '2026-01-01'],
      ['works_at', 3, null],
      ['works_at', 6, '2020-01-01'],
    ],
    'the ended copy is a fact of its own; the ended Porto is one too',
  );
});
