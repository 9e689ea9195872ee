// The nightly extraction's answer parser (actors/scheduler/sleep/parse.ts) on well-formed and malformed answers:
// headings in several spellings, fenced and line-by-line JSON facts, bad triples, unknown topics and refs, missing
// sections, an answer with no sections at all (every line a memory, no facts), and NO_NEW_MEMORIES.
import t from 'tap';
import { MAX_MEMORY_CHARS, parseExtraction, tripleArgs } from '../../../actors/scheduler/sleep/parse.js';

const reasons = (x: ReturnType<typeof parseExtraction>) => x.problems.map((p) => p.reason);

t.test('a well-formed answer: numbered memories with topics, a fenced JSON array of facts', async (t) => {
  const x = parseExtraction(
    [
      'MEMORIES',
      '1. Maya Chen moved to Lisbon in November 2026.',
      '2. The Atlas cutover is on 5 December.',
      '',
      'FACTS',
      '```json',
      '[{"subject": "Maya Chen", "predicate": "lives_in", "object": "Lisbon", "valid_from": "2026-11-01"},',
      ' {"subject": "Atlas migration", "predicate": "has_status", "object": "cutover planned"}]',
      '```',
      '',
      'TOPICS',
      '1: personal',
      '2: work',
    ].join('\n'),
  );
  t.equal(x.none, false);
  t.same(x.memories, [
    { ref: '1', text: 'Maya Chen moved to Lisbon in November 2026.', topic: 'personal' },
    { ref: '2', text: 'The Atlas cutover is on 5 December.', topic: 'work' },
  ]);
  t.same(x.facts, [
    { subject: 'Maya Chen', predicate: 'lives_in', object: 'Lisbon', valid_from: '2026-11-01' },
    { subject: 'Atlas migration', predicate: 'has_status', object: 'cutover planned' },
  ]);
  t.same(x.problems, []);
});

t.test('headings in markdown, bold and with a colon; bullets with [m1] refs; topics with arrows and bold', async (t) => {
  const x = parseExtraction(
    [
      'Here is what I found.',
      '## Memories',
      '- [m1] Prefers short email summaries.',
      '* [m2] Started learning Portuguese.',
      '**FACTS:**',
      '{"subject": "Owner", "predicate": "prefers", "object": "short email summaries"}',
      '{"subject": "Owner", "predicate": "learning", "object": "Portuguese"},',
      '### Topics',
      '- m1 → **meta**',
      '- [m2] = learning',
    ].join('\n'),
  );
  t.same(
    x.memories.map((m) => [m.ref, m.text, m.topic]),
    [
      ['m1', 'Prefers short email summaries.', 'meta'],
      ['m2', 'Started learning Portuguese.', 'learning'],
    ],
  );
  t.equal(x.facts.length, 2, 'JSON lines, one object each (a trailing comma tolerated)');
  t.same(x.problems, []);
});

t.test('FACTS: [] on the heading line, and "none" under a heading, are empty sections', async (t) => {
  const x = parseExtraction('MEMORIES:\n- Bought a bike.\nFACTS: []\nTOPICS:\n1: personal\n');
  t.same(x.facts, []);
  t.same(x.memories, [{ ref: null, text: 'Bought a bike.', topic: 'personal' }], 'an unnumbered memory is ref’d by its place');
  const y = parseExtraction('MEMORIES\n(none)\nFACTS\n[{"subject":"A","predicate":"b","object":"c"}]\nTOPICS\nnone\n');
  t.same(y.memories, []);
  t.equal(y.facts.length, 1);
  t.same(reasons(y), ['bad_topic_line'], 'a line that is not "ref: topic" is said, not guessed at');
});

t.test('FACTS that are not JSON: no facts, the memories kept, the problem said', async (t) => {
  const x = parseExtraction('MEMORIES\n1. Adopted a cat.\nFACTS\n- Owner has a cat named Miso\nTOPICS\n1: personal\n');
  t.same(x.facts, []);
  t.same(x.memories, [{ ref: '1', text: 'Adopted a cat.', topic: 'personal' }]);
  t.same(reasons(x), ['bad_json']);
  t.match(x.problems[0]!.detail, /Owner has a cat named Miso/);
});

t.test('a fact that is not an object is refused on its own; the other facts stay', async (t) => {
  const x = parseExtraction(
    'MEMORIES\n1. x happened.\nFACTS\n[{"subject":"A","predicate":"b","object":"c"}, "A likes c", 42]\nTOPICS\n1: meta\n',
  );
  t.same(x.facts, [{ subject: 'A', predicate: 'b', object: 'c' }]);
  t.same(reasons(x), ['not_a_triple', 'not_a_triple']);
});

t.test('an unknown topic leaves the memory without a category; an unknown ref is said', async (t) => {
  const x = parseExtraction('MEMORIES\n1. Paid the rent.\n2. Fixed the build.\nFACTS\n[]\nTOPICS\n1: money\n2: tech\n7: work\n');
  t.same(
    x.memories.map((m) => m.topic),
    [null, 'tech'],
  );
  t.same(reasons(x), ['unknown_topic', 'unknown_ref']);
  t.match(x.problems[0]!.detail, /money: not one of work, tech, personal, finance, admin, learning, meta/);
});

t.test('missing sections are said; what is there is used', async (t) => {
  const x = parseExtraction('MEMORIES\n1. Moved the standup to 9:30.\n');
  t.same(x.memories, [{ ref: '1', text: 'Moved the standup to 9:30.', topic: null }]);
  t.same(x.facts, []);
  t.same(reasons(x), ['missing_section', 'missing_section']);
  const y = parseExtraction('FACTS\n[{"subject":"A","predicate":"b","object":"c"}]');
  t.same(y.memories, []);
  t.equal(y.facts.length, 1, 'facts without memories still count');
});

t.test('no sections at all: the whole answer as memories, no facts', async (t) => {
  const x = parseExtraction(
    'Sure! The person decided to move the Atlas cutover to 5 December.\n\n- They also prefer async updates.\n```\n{"subject":"A","predicate":"b","object":"c"}\n```',
  );
  t.same(
    x.memories.map((m) => m.text),
    [
      'Sure! The person decided to move the Atlas cutover to 5 December.',
      'They also prefer async updates.',
      '{"subject":"A","predicate":"b","object":"c"}',
    ],
  );
  t.same(x.facts, [], 'no facts from a degraded answer');
  t.same(reasons(x), ['degraded']);
});

t.test('NO_NEW_MEMORIES alone, fenced, quoted or with a full stop: nothing new', async (t) => {
  for (const a of ['NO_NEW_MEMORIES', '  NO_NEW_MEMORIES.\n', '```\nNO_NEW_MEMORIES\n```', '"NO_NEW_MEMORIES"', '**NO_NEW_MEMORIES**']) {
    const x = parseExtraction(a);
    t.equal(x.none, true, JSON.stringify(a));
    t.same(x.memories, []);
  }
  const x = parseExtraction('MEMORIES\nNO_NEW_MEMORIES\nFACTS\n[{"subject":"A","predicate":"b","object":"c"}]\nTOPICS\n');
  t.equal(x.none, false, 'the sentinel inside a section only empties that section');
  t.same(x.memories, []);
  t.equal(x.facts.length, 1);
});

t.test('CRLF line ends, and an over-long memory is cut to one fact-log line', async (t) => {
  const long = 'word '.repeat(400);
  const x = parseExtraction(`MEMORIES\r\n1. ${long}\r\nFACTS\r\n[]\r\nTOPICS\r\n1: meta\r\n`);
  t.equal(x.memories.length, 1);
  t.equal(x.memories[0]!.text.length, MAX_MEMORY_CHARS);
  t.match(x.memories[0]!.text, /…$/);
  t.equal(x.memories[0]!.topic, 'meta');
  t.equal(parseExtraction('MEMORIES\n1. a\u0000b\u0007c\n').memories[0]!.text, 'a b c', 'control characters never reach the log');
});

t.test('facts wrapped in {"facts": [...]}, and triples trimmed to what memory_add_fact takes', async (t) => {
  const x = parseExtraction('MEMORIES\n1. x.\nFACTS\n{"facts": [{"subject":"A","predicate":"b","object":"c"}]}\nTOPICS\n1: meta\n');
  t.same(x.facts, [{ subject: 'A', predicate: 'b', object: 'c' }]);
  t.same(
    tripleArgs({ subject: 'A', predicate: 'b', object: 'c', valid_from: null, valid_until: '', temporary: false, confidence: 0.9 }),
    { subject: 'A', predicate: 'b', object: 'c', temporary: false },
    'extra keys and empty optional ones left out',
  );
  t.same(
    tripleArgs({ subject: null, predicate: 'b' }),
    { subject: null, predicate: 'b' },
    'a missing required field stays missing for the schema to name',
  );
});
