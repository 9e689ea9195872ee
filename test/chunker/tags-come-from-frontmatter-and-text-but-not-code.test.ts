// Tags: frontmatter lists and strings plus inline #tags, lowercased and deduplicated, never read from code or URLs.
import t from 'tap';
import { parse } from './helpers.js';

t.test('frontmatter tags as a list or a string, with or without #', async (t) => {
  t.same(parse('---\ntags: [Project, "#atlas", db/postgres]\n---\nx\n').tags, ['project', 'atlas', 'db/postgres']);
  t.same(parse('---\ntags: "hiring, #team meeting"\n---\nx\n').tags, ['hiring', 'team', 'meeting']);
  t.same(parse('---\ntags:\n  - Daily\n  - 2026\n---\nx\n').tags, ['daily'], 'a number is not a tag');
});

t.test('inline tags in text, headings and lists are found; code, URLs and numbers are not', async (t) => {
  const text = [
    '---',
    'tags: [daily]',
    '---',
    '# Log #Billing',
    'Fixed the #bug/export in the CSV job. #Daily again.',
    '- follow up #follow-up',
    'Inline `#notatag` code and issue #123 and [[Note#Heading]].',
    'See https://example.com/page#fragment and &#38; entity.',
    '```sh',
    'echo "#alsonotatag"',
    '```',
    '    #indented-code-too',
    '',
    '| col | #in_table |',
    '|-----|-----------|',
    '| a   | b         |',
    '#élan at line start',
  ].join('\n');
  t.same(parse(text).tags, ['daily', 'billing', 'bug/export', 'follow-up', 'in_table', 'élan']);
});

t.test('a code span that spans lines hides tags inside it', async (t) => {
  t.same(parse('Before `code\n#hidden` after #shown\n').tags, ['shown']);
  t.same(parse('An unclosed ` backtick then #shown\n').tags, ['shown']);
  t.same(parse('Escaped \\`not code #shown\\` and ``a ` #hidden`` #also\n').tags, ['shown', 'also']);
});
