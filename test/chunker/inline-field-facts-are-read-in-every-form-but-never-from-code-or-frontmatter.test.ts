// Inline-field facts: every Dataview form, with validity from the same line and the file line; none from code or YAML,
// nor from Obsidian's comments and block ids; a fact said twice in a note is one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { EXAMPLE_VAULT } from '../helpers/daemon.js';
import { parse } from './helpers.js';

const pick = (f: { predicate: string; object: string; line: number }) => [f.predicate, f.object, f.line];

t.test('every inline-field form, with file line numbers that count the frontmatter', async (t) => {
  const text = [
    '---', // 1
    'title: Alice', // 2
    'works_at:: not a fact in YAML', // 3
    '---', // 4
    'works_at:: [[Acme]]', // 5
    '- prefers:: short email summaries', // 6
    '* [x] Has-Status:: active', // 7
    '1. lives_in:: Lisbon [from:: 2024-01-01] [until:: 2026-02-28]', // 8
    '> quote_key:: quoted value', // 9
    '… she is [lives_in:: Porto] now, and (hidden_key:: [[People/Bob Stone|Bob]]) knows.', // 10
    '- staying_in:: Paris [temporary:: true] [confidence:: 0.6]', // 11
    'A url http://example.com:8080 and a ratio 3::4 are not facts, nor `code_key:: x`.', // 12
    '```', // 13
    'fence_key:: nope', // 14
    '```', // 15
    '', // 16
    '    indented_key:: code block', // 17
    'empty_key::', // 18
  ].join('\n');
  const facts = parse(text, 'People/Alice.md').facts;
  t.same(facts.map(pick), [
    ['works_at', 'Acme', 5],
    ['prefers', 'short email summaries', 6],
    ['has_status', 'active', 7],
    ['lives_in', 'Lisbon', 8],
    ['quote_key', 'quoted value', 9],
    ['lives_in', 'Porto', 10],
    ['hidden_key', 'Bob Stone', 10],
    ['staying_in', 'Paris', 11],
  ]);
  t.match(facts[0], { objectLink: 'Acme', validFrom: null, validUntil: null, temporary: false, confidence: null });
  t.match(facts[3], { objectLink: null, validFrom: Date.UTC(2024, 0, 1), validUntil: Date.UTC(2026, 1, 28) });
  t.match(facts[6], { objectLink: 'People/Bob Stone' });
  t.match(facts[7], { temporary: true, confidence: 0.6 });
  t.notOk(
    facts.some((f) => f.problem),
    'no problems',
  );
});

t.test('an unreadable validity keeps the fact and says what was wrong', async (t) => {
  const [f] = parse('- works_at:: Acme [from:: last spring] [confidence:: 7]\n').facts;
  t.match(f, { predicate: 'works_at', object: 'Acme', validFrom: null, confidence: null });
  t.match(f?.problem, /from must be a date like 2026-02-28, got "last spring"; confidence must be a number from 0 to 1/);
  t.same(parse('- works_at:: Acme [until:: 2026-02-30]\n').facts[0]?.validUntil, null, 'a day that does not exist');
});

t.test('an Obsidian block id or comment is no part of a fact; a link to a block is kept whole', async (t) => {
  const text = [
    'works_at:: [[Acme]] ^t1', // 1
    '- lives_in:: Lisbon [from:: 2024-01-01] ^lives-1  ', // 2
    '- likes:: tea %% not coffee %% and cake', // 3
    '- spouse:: [[Bob]] %% a comment that', // 4
    'runs on: hidden_key:: nope', // 5
    '', // 6
    'over a paragraph [hidden_too:: nope] %% prefers:: quiet', // 7
    '- %% old_key:: gone %% cited_in:: [[Paper#^fig-2]]', // 8
    '- formula:: x^2 ^ y', // 9
    '- ends_with:: a caret ^', // 10
    'Before a `%%` in code [mood:: calm] and %% an unclosed comment', // 11
    'hides_key:: the rest of the note', // 12
  ].join('\n');
  const facts = parse(text).facts;
  t.same(
    facts.map((f) => [f.predicate, f.object, f.objectLink, f.line]),
    [
      ['works_at', 'Acme', 'Acme', 1],
      ['lives_in', 'Lisbon', null, 2],
      ['likes', 'tea and cake', null, 3],
      ['spouse', 'Bob', 'Bob', 4],
      ['prefers', 'quiet', null, 7],
      ['cited_in', 'Paper', 'Paper', 8],
      ['formula', 'x^2 ^ y', null, 9],
      ['ends_with', 'a caret ^', null, 10],
      ['mood', 'calm', null, 11],
    ],
  );
  t.equal(facts[1]?.validFrom, Date.UTC(2024, 0, 1), 'the validity before a block id is read');
});

t.test('a fact said twice in a note is one fact, its first line; another validity is another fact', async (t) => {
  const text = [
    '- works_at:: [[Acme]]', // 1
    '- likes:: tea', // 2
    'She is at [works_at:: [[Acme|the company]]] ^w2', // 3
    '- works_at:: [[Acme]] [until:: 2020-01-01]', // 4
    '- likes:: tea [temporary:: true]', // 5
    '', // 6
    '## Again', // 7
    '- works_at:: [[Acme]]', // 8
    '- likes:: Tea', // 9
  ].join('\n');
  t.same(
    parse(text).facts.map((f) => [f.predicate, f.object, f.validUntil, f.temporary, f.line]),
    [
      ['works_at', 'Acme', null, false, 1],
      ['likes', 'tea', null, false, 2],
      ['works_at', 'Acme', Date.UTC(2020, 0, 1), false, 4],
      ['likes', 'tea', null, true, 5],
      ['likes', 'Tea', null, false, 9],
    ],
  );
});

t.test('the example vault People notes carry facts about their title', async (t) => {
  const file = path.join(EXAMPLE_VAULT, 'People/Maya Chen.md');
  const note = parse(readFileSync(file, 'utf8'), 'People/Maya Chen.md');
  t.equal(note.title, 'Maya Chen');
  t.same(
    note.facts.map((f) => [
      f.predicate,
      f.object,
      f.validFrom && new Date(f.validFrom).toISOString().slice(0, 10),
      f.validUntil && new Date(f.validUntil).toISOString().slice(0, 10),
    ]),
    [
      ['works_at', 'Rotterdam payments company', null, '2026-03-02'],
      ['works_at', 'Ledgerline', '2026-03-02', null],
      ['has_role', 'Senior backend engineer', '2026-03-02', null],
      ['works_on', 'Atlas migration', null, null],
      ['prefers', 'written proposals to meetings', null, null],
      ['birthday', '14 February', null, null],
      ['coffee', 'flat white, oat milk', null, null],
    ],
  );
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const f of note.facts) t.match(lines[f.line - 1], `${f.predicate}::`, `line ${f.line} holds ${f.predicate}`);
});
