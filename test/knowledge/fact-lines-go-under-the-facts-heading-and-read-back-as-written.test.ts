// The text edits memory_add_fact makes: the line lands at the end of `## Facts` (made when missing), never fused onto
// a paragraph, in the note's own line endings; what is written is read back by the chunker as the same fact.
import t from 'tap';
import { appendUnderFacts, formatFactLine, jaccard, removeLine, setUntil } from '../../actors/knowledge/fact-lines.js';
import { parse } from '../chunker/helpers.js';

t.test('a line goes to the end of the Facts section, or a new section at the end', async (t) => {
  const note = '# Ann\n\n## Facts\n\n- works_at:: Acme\n\n## Notes\n\nText.\n';
  t.same(appendUnderFacts(note, '- lives_in:: Porto'), {
    text: '# Ann\n\n## Facts\n\n- works_at:: Acme\n- lives_in:: Porto\n\n## Notes\n\nText.\n',
    line: 6,
  });
  t.same(appendUnderFacts('# Ann\n\nSome text.', '- a:: b'), { text: '# Ann\n\nSome text.\n\n## Facts\n\n- a:: b\n', line: 7 });
  t.same(
    appendUnderFacts('## Facts\nShe is [x:: y].\n## Next\n', '- a:: b'),
    {
      text: '## Facts\nShe is [x:: y].\n\n- a:: b\n\n## Next\n',
      line: 4,
    },
    'a blank line keeps the bullet off the paragraph',
  );
  t.same(appendUnderFacts('## Facts\n### Sub\n- k:: v\n', '- a:: b').text, '## Facts\n### Sub\n- k:: v\n- a:: b\n', 'a ### stays inside');
  t.same(
    appendUnderFacts('```\n## Facts\n```\n', '- a:: b').text,
    '```\n## Facts\n```\n\n## Facts\n\n- a:: b\n',
    'not a heading in a fence',
  );
  t.same(
    appendUnderFacts('# A\r\n\r\n## Facts\r\n- k:: v\r\n', '- a:: b').text,
    '# A\r\n\r\n## Facts\r\n- k:: v\r\n- a:: b\r\n',
    'CRLF kept',
  );
});

t.test('validity is written so the chunker reads the same fact back', async (t) => {
  const line = formatFactLine({ predicate: 'works_at', object: '[[Acme Corp]]', validFrom: Date.UTC(2026, 0, 5), temporary: true });
  t.equal(line, '- works_at:: [[Acme Corp]] [from:: 2026-01-05] [temporary:: true]');
  const [f] = parse(`# Ann\n\n${line}\n`).facts;
  t.match(f, { predicate: 'works_at', object: 'Acme Corp', objectLink: 'Acme Corp', validFrom: Date.UTC(2026, 0, 5), temporary: true });
  t.equal(setUntil('a\n- k:: v [until:: 2020-01-01]\n', 2, Date.UTC(2026, 1, 1)), 'a\n- k:: v [until:: 2026-02-01]\n');
  t.equal(setUntil('a\n- k:: v  \n', 2, Date.UTC(2026, 1, 1)), 'a\n- k:: v [until:: 2026-02-01]\n');
  t.equal(setUntil('- k:: v ^b-1\n', 1, Date.UTC(2026, 1, 1)), '- k:: v [until:: 2026-02-01] ^b-1\n', 'the block id stays last');
  t.match(parse(setUntil('- k:: v ^b-1\n', 1, Date.UTC(2026, 1, 1))!).facts[0], { object: 'v', validUntil: Date.UTC(2026, 1, 1) });
  t.equal(setUntil('- k:: [[N#^b]]\n', 1, Date.UTC(2026, 1, 1)), '- k:: [[N#^b]] [until:: 2026-02-01]\n', 'a link to a block is no id');
  t.equal(removeLine('a\nb\nc\n', 2), 'a\nc\n');
  t.equal(removeLine('a\n', 2), null);
});

t.test('Jaccard on words, case and punctuation ignored', async (t) => {
  t.equal(jaccard('Written proposals to meetings!', 'written proposals to meetings'), 1);
  t.equal(jaccard('short email summaries', 'short email summaries please'), 0.75);
  t.ok(jaccard('short email summaries', 'long email threads') < 0.7);
  t.equal(jaccard('[[Acme]]', 'acme'), 1);
});
