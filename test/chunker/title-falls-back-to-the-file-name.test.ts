// Title: frontmatter `title` when it is a non-empty string, else the file name without `.md`.
import t from 'tap';
import { parse } from './helpers.js';

t.test('frontmatter title wins', async (t) => {
  t.equal(parse('---\ntitle: "  Hiring   plan "\n---\nx\n', 'Meetings/2026-11-17 hiring.md').title, 'Hiring plan');
});

t.test('without a usable title the file stem is used', async (t) => {
  t.equal(parse('x\n', 'Meetings/2026-11-17 hiring.md').title, '2026-11-17 hiring');
  t.equal(parse('---\ntitle: ""\n---\nx\n', 'People/Maya Chen.MD').title, 'Maya Chen');
  t.equal(parse('---\ntitle: [a, b]\n---\nx\n', 'Inbox/idea.md').title, 'idea');
  t.equal(parse('# A heading is not the title\n', 'Inbox/idea.md').title, 'idea');
});

t.test('the title leads the context line unless the first heading repeats it', async (t) => {
  const note = parse('# Data types\ntext\n## Integers\nmore\n', 'book/data types.md');
  t.same(
    note.chunks.map((c) => c.content.split('\n')[0]),
    ['Data types', 'Data types > Integers'],
  );
  const other = parse('# Overview\ntext\n', 'Projects/Atlas.md');
  t.equal(other.chunks[0]!.content.split('\n')[0], 'Atlas > Overview');
});
