// The fact log's format: a fact line reads back as it was written (category, content, trailing tags), its id is the
// day plus 8 hex digits of the sha256 of the normalised text, appends go under one `## HH:MM — who` header per
// minute and author, and a tombstone hides a fact logged at or before it, whatever its case, spacing or final stop.
import t from 'tap';
import {
  appendToDayLog,
  factId,
  factInstant,
  formatFactLine,
  isForgotten,
  normaliseFact,
  parseDayLog,
  parseFactLine,
  logPosition,
  parseTombstones,
} from '../../actors/memory/fact-log.js';
import { sha256Hex } from '../../messages/hash.js';

t.test('a fact line reads back as written', async (t) => {
  const line = formatFactLine({ content: 'Alice moved to Lisbon', category: 'people', tags: ['alice', 'moves/2026'] });
  t.equal(line, '- [people] Alice moved to Lisbon #alice #moves/2026');
  t.same(parseFactLine(line), { content: 'Alice moved to Lisbon', category: 'people', tags: ['alice', 'moves/2026'] });
  t.same(parseFactLine('- we ranked #1 again'), { content: 'we ranked #1 again', category: null, tags: [] }, '#1 is not a tag');
  t.same(parseFactLine('- the C# build #dev'), { content: 'the C# build', category: null, tags: ['dev'] }, 'a # inside the text stays');
  t.equal(parseFactLine('not a fact'), null);
  t.equal(parseFactLine('- #only-tags'), null, 'a line of tags alone holds no fact');
  for (const content of ['[draft] plan for Q3', '\\[x] a backslash first', '[todo]']) {
    const written = formatFactLine({ content, category: null, tags: ['q3'] });
    t.same(parseFactLine(written), { content, category: null, tags: ['q3'] }, `${written} reads back without a category`);
  }
  t.equal(formatFactLine({ content: '[draft] plan', category: null, tags: [] }), '- \\[draft] plan', 'escaped as Markdown does');
  // a leading wikilink never reads as a category: written as given, so it still links in Obsidian
  for (const content of ['[[Alice]] moved to Lisbon', '[[Q3 plan]]']) {
    const written = formatFactLine({ content, category: null, tags: ['q3'] });
    t.equal(written, `- ${content} #q3`, `${content} is not escaped`);
    t.same(parseFactLine(written), { content, category: null, tags: ['q3'] }, `${written} reads back as given`);
  }
  t.same(parseFactLine('- [idea] [draft] plan'), { content: '[draft] plan', category: 'idea', tags: [] }, 'after a category: as written');
  t.same(parseFactLine('- [people] Alice'), { content: 'Alice', category: 'people', tags: [] }, "a person's category still reads as one");
});

t.test('normalised text and fact ids', async (t) => {
  t.equal(normaliseFact('  Alice   lives in\tBERLIN.  '), 'alice lives in berlin');
  t.equal(normaliseFact('Really?!…'), 'really');
  t.equal(factId('2026-05-01', 'Alice lives in Berlin!'), `2026-05-01#${sha256Hex('alice lives in berlin').slice(0, 8)}`);
  t.equal(factId('2026-05-01', 'alice  lives in berlin'), factId('2026-05-01', 'Alice lives in Berlin.'), 'one fact, two spellings');
});

t.test('appends go under one header per minute and author, with their line numbers', async (t) => {
  let log = appendToDayLog(null, '2026-05-01', '09:15', 'agent-1', '- first');
  t.same(log, { text: '# 2026-05-01\n\n## 09:15 — agent-1\n- first\n', line: 4 });
  log = appendToDayLog(log.text, '2026-05-01', '09:15', 'agent-1', '- second');
  t.equal(log.line, 5, 'same minute, same author: no new header');
  log = appendToDayLog(log.text, '2026-05-01', '09:16', 'chat\n42', '- third');
  t.equal(log.line, 8);
  t.match(log.text, /\n\n## 09:16 — chat 42\n- third\n$/, 'a new header; who is one line');
  const facts = parseDayLog(log.text, '2026-05-01');
  t.same(
    facts.map((f) => [f.line, f.content, f.time, f.who]),
    [
      [4, 'first', '09:15', 'agent-1'],
      [5, 'second', '09:15', 'agent-1'],
      [8, 'third', '09:16', 'chat 42'],
    ],
  );
  const person = appendToDayLog('# 2026-05-01\n\n## 09:15 — agent-1\n- first', '2026-05-01', '09:15', 'agent-1', '- more');
  t.equal(person.text, '# 2026-05-01\n\n## 09:15 — agent-1\n- first\n- more\n', 'a log a person left without a final newline');
});

t.test('a tombstone hides the copies of its text up to the log position it records, and no later one', async (t) => {
  const at = new Date(2026, 4, 1, 12, 0).getTime(); // local, as header times are read
  const stones = parseTombstones(
    [
      JSON.stringify({ fact: 'Alice lives in Berlin.', fact_id: '2026-05-01#x', at: new Date(at).toISOString(), through: '2026-05-01:7' }),
      'a stray line a person typed',
      JSON.stringify({ fact: 'no time' }),
      JSON.stringify({ fact: 'Bob likes tea', at: new Date(at).toISOString() }),
      JSON.stringify({ fact: 'alice lives in berlin', at: new Date(at).toISOString(), through: '2026-04-30:99' }),
    ].join('\n'),
  );
  t.same([...stones.keys()], ['alice lives in berlin', 'bob likes tea']);
  const alice = normaliseFact('ALICE lives in berlin');
  t.ok(isForgotten(stones, alice, '2026-05-01', { line: 7, time: '23:59' }), 'up to its line, whatever the header says');
  t.ok(isForgotten(stones, alice, '2026-04-02', { line: 500, time: '09:00' }), 'an earlier day');
  t.notOk(isForgotten(stones, alice, '2026-05-01', { line: 8, time: '00:00' }), 'remembered again after it: a new memory');
  t.notOk(isForgotten(stones, alice, '2026-05-02', { line: 1, time: null }), 'a later day');
  t.notOk(isForgotten(stones, 'alice moved to lisbon', '2026-04-01', { line: 1, time: null }));
  // a tombstone written before `through` existed: its instant against the header's minute (local)
  t.ok(isForgotten(stones, 'bob likes tea', '2026-05-01', { line: 90, time: '12:00' }), 'at the same minute');
  t.notOk(isForgotten(stones, 'bob likes tea', '2026-05-01', { line: 1, time: '12:01' }), 'after it');
  t.equal(factInstant('2026-05-01', '09:15'), new Date(2026, 4, 1, 9, 15).getTime(), 'a header time is local');
  t.equal(logPosition('2026-05-01', null), '2026-05-01:0');
  t.equal(logPosition('2026-05-01', '# 2026-05-01\n\n## 09:15 — a\n- x\n'), '2026-05-01:4');
  t.equal(logPosition('2026-05-01', '# 2026-05-01\n\n## 09:15 — a\n- x'), '2026-05-01:4', 'no final newline');
});
