// Frontmatter: valid YAML becomes data; malformed or non-mapping YAML is reported while the body is still indexed.
import t from 'tap';
import { bodyOf, parse } from './helpers.js';

t.test('valid frontmatter becomes plain data and stays out of the chunks', async (t) => {
  const note = parse(
    '---\ntitle: Atlas migration\ndate: 2026-11-16\naliases: [Atlas, PG move]\ncount: 3\n---\n# Plan\nMove billing to Postgres.\n',
  );
  t.same(note.frontmatter, { title: 'Atlas migration', date: '2026-11-16', aliases: ['Atlas', 'PG move'], count: 3 });
  t.equal(note.frontmatterError, undefined);
  t.equal(note.chunks.length, 1);
  t.equal(bodyOf(note.chunks[0]!.content), 'Move billing to Postgres.');
  t.notMatch(note.chunks[0]!.content, /aliases/);
});

t.test('malformed YAML sets frontmatterError with the parser message, and the body is still chunked', async (t) => {
  const text = '---\ntitle: [unclosed\nowner: sam\n---\nThe body mentions the billing export bug.\n';
  const note = parse(text);
  t.same(note.frontmatter, {});
  t.match(note.frontmatterError, /invalid YAML in frontmatter \(file lines 2-3\)/);
  t.match(note.frontmatterError, /Flow sequence|flow collection|Missing/i, 'carries the yaml library message');
  t.equal(note.chunks.length, 1);
  t.match(note.chunks[0]!.content, /billing export bug/);
  t.equal(note.chunks[0]!.startLine, 5);
});

t.test('a list or a scalar is not a frontmatter mapping', async (t) => {
  const list = parse('---\n- a\n- b\n---\nbody text\n');
  t.same(list.frontmatter, {});
  t.match(list.frontmatterError, /must be a YAML mapping.*got a list/);
  t.match(list.chunks[0]!.content, /body text/);
  const scalar = parse('---\njust words\n---\nbody text\n');
  t.match(scalar.frontmatterError, /got a string/);
});

t.test('empty frontmatter is fine, and an unclosed fence is body text', async (t) => {
  const empty = parse('---\n---\nhello\n');
  t.same(empty.frontmatter, {});
  t.equal(empty.frontmatterError, undefined);
  const unclosed = parse('---\ntitle: x\nno closing fence here\n');
  t.same(unclosed.frontmatter, {});
  t.equal(unclosed.frontmatterError, undefined);
  t.match(unclosed.chunks.map((c) => c.content).join('\n'), /no closing fence here/);
});

t.test('duplicate keys are malformed, not silently last-wins', async (t) => {
  const note = parse('---\ntitle: a\ntitle: b\n---\nbody\n');
  t.match(note.frontmatterError, /unique|duplicate/i);
});
