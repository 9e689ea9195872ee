// Heading paths: each chunk belongs to one section and carries its ancestor headings, whatever the heading style.
import t from 'tap';
import { parse } from './helpers.js';

t.test('nested, skipped-level and setext headings give truthful paths', async (t) => {
  const text = [
    'Preamble before any heading.',
    '',
    'Project Plan',
    '============',
    'Intro to the plan.',
    '',
    'Design',
    '------',
    'Design overview.',
    '#### Schema',
    'Tables and keys.',
    '### Indexes',
    'B-tree on user_id.',
    '## Rollout',
    'Two phases.',
    '# Appendix',
    'Links.',
  ].join('\n');
  const chunks = parse(text, 'Projects/plan.md').chunks;
  t.same(
    chunks.map((c) => c.headingPath),
    [
      [],
      ['Project Plan'],
      ['Project Plan', 'Design'],
      ['Project Plan', 'Design', 'Schema'],
      ['Project Plan', 'Design', 'Indexes'],
      ['Project Plan', 'Rollout'],
      ['Appendix'],
    ],
  );
  t.same(
    chunks.map((c) => c.content.split('\n')[0]),
    [
      'plan',
      'plan > Project Plan',
      'plan > Project Plan > Design',
      'plan > Project Plan > Design > Schema',
      'plan > Project Plan > Design > Indexes',
      'plan > Project Plan > Rollout',
      'plan > Appendix',
    ],
  );
  t.same(
    chunks.map((c) => c.seq),
    [0, 1, 2, 3, 4, 5, 6],
  );
});

t.test('sections are never merged, and a heading with no text under it gives no chunk', async (t) => {
  const chunks = parse('# A\n## B\nunder b\n## C\n## D\nunder d\n').chunks;
  t.same(
    chunks.map((c) => c.headingPath),
    [
      ['A', 'B'],
      ['A', 'D'],
    ],
  );
});

t.test('a heading inside a list or quote is content, not a section', async (t) => {
  const chunks = parse('# Top\n> # Quoted heading\n> text\n\n- # listed\n').chunks;
  t.same(
    chunks.map((c) => c.headingPath),
    [['Top']],
  );
});

t.test('a note with only frontmatter or headings gets one chunk with its title', async (t) => {
  const only = parse('---\ntags: [x]\n---\n', 'Inbox/Call the plumber.md');
  t.same(
    only.chunks.map((c) => [c.content, c.startLine, c.endLine, c.headingPath]),
    [['Call the plumber', 1, 3, []]],
  );
  t.equal(parse('', 'Inbox/Empty.md').chunks[0]!.content, 'Empty');
  t.equal(parse('# Ideas\n\n## Later\n', 'Inbox/x.md').chunks.length, 1);
});
