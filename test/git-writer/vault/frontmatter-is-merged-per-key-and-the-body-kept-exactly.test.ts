// Frontmatter merge: omitted frontmatter keeps the old block, new keys win, old keys survive, a bad old block never
// blocks a write, a bad new block is invalid_content — and the body is always written byte for byte.
import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { mergeFrontmatter } from '../../../actors/git-writer/vault/frontmatter-merge.js';
import { AGENT, sandbox, snapshot, writerFor } from './helpers.js';

function text(r: ReturnType<typeof mergeFrontmatter>): string {
  if ('reason' in r) throw new Error(`expected text, got ${r.reason}: ${r.message}`);
  return r.text;
}

function yamlOf(note: string): unknown {
  const m = /^---\r?\n([\s\S]*?)^---\r?$/m.exec(note);
  return parse(m?.[1] ?? '');
}

t.test('new content without frontmatter keeps the existing block as it was', async (t) => {
  const old = '---\ntitle: Plan  # keep this comment\ntags: [a, b]\n---\nold body\n';
  t.equal(text(mergeFrontmatter(old, 'new body\n')), '---\ntitle: Plan  # keep this comment\ntags: [a, b]\n---\nnew body\n');
  t.equal(
    text(mergeFrontmatter('---\ntitle: x\n---', 'body')),
    '---\ntitle: x\n---\nbody',
    'a closing fence at end of file gains a line break',
  );
  t.equal(
    text(mergeFrontmatter('---\r\ntitle: x\r\n---\r\nold\r\n', 'new\r\n')),
    '---\r\ntitle: x\r\n---\r\nnew\r\n',
    'CRLF notes stay CRLF',
  );
  t.equal(text(mergeFrontmatter(null, 'fresh\n')), 'fresh\n');
  t.equal(text(mergeFrontmatter('no frontmatter\n', 'fresh\n')), 'fresh\n');
});

t.test('both blocks: the new value wins per key and keys it omits are kept', async (t) => {
  const old = '---\ntitle: Old\nstatus: draft\nowner: sam\n---\nold\n';
  const merged = text(mergeFrontmatter(old, '---\ntitle: New  # mine\nstatus: done\n---\nnew\n'));
  t.same(yamlOf(merged), { title: 'New', status: 'done', owner: 'sam' });
  t.match(merged, /^---\ntitle: New {2}# mine\nstatus: done\n/, "the agent's own lines are kept verbatim");
  t.ok(merged.endsWith('---\nnew\n'));
  t.equal(
    text(mergeFrontmatter(old, '---\ntitle: A\nstatus: B\nowner: C\n---\nn\n')),
    '---\ntitle: A\nstatus: B\nowner: C\n---\nn\n',
    'nothing to add: the new text as sent',
  );
  t.same(
    yamlOf(text(mergeFrontmatter(old, '---\nowner: null\n---\nn\n'))),
    { title: 'Old', status: 'draft', owner: null },
    'a key is cleared by setting it to null',
  );
  t.same(
    yamlOf(text(mergeFrontmatter(old, '---\n---\nn\n'))),
    { title: 'Old', status: 'draft', owner: 'sam' },
    'an empty new block keeps every old key',
  );
});

t.test('merges that cannot be appended verbatim are written out as plain YAML with the same data', async (t) => {
  const flow = text(mergeFrontmatter('---\na: 1\nb: 2\n---\nx\n', '---\n{a: 3}\n---\ny\n'));
  t.same(yamlOf(flow), { a: 3, b: 2 });
  t.ok(flow.endsWith('---\ny\n'));
  const alias = text(mergeFrontmatter('---\na: &v 1\nb: *v\n---\nx\n', '---\na: 3\n---\ny\n'));
  t.same(yamlOf(alias), { a: 3, b: 1 }, 'an alias to an anchor the new block replaced keeps its value');
  const crlf = text(mergeFrontmatter('---\r\na: 1\r\nb: 2\r\n---\r\nx\r\n', '---\r\na: 3\r\n---\r\ny\r\n'));
  t.equal(crlf, '---\r\na: 3\r\nb: 2\r\n---\r\ny\r\n');
});

t.test('a malformed existing block never blocks a write: the new content is kept as is', async (t) => {
  for (const old of ['---\ntitle: [unclosed\n---\nold\n', '---\n- a list\n---\nold\n', '---\na: 1\na: 2\n---\nold\n']) {
    t.equal(text(mergeFrontmatter(old, '---\ntitle: New\n---\nnew\n')), '---\ntitle: New\n---\nnew\n', JSON.stringify(old));
    t.equal(text(mergeFrontmatter(old, 'new\n')), 'new\n');
  }
});

t.test('malformed new frontmatter is invalid_content carrying the YAML error', async (t) => {
  t.match(mergeFrontmatter(null, '---\ntitle: [unclosed\n---\nbody\n'), {
    ok: false,
    reason: 'invalid_content',
    message: /frontmatter is not valid YAML: .*(Flow sequence|flow collection|Missing)/s,
  });
  t.match(mergeFrontmatter('---\na: 1\n---\n', '---\n- a\n- b\n---\nbody\n'), {
    reason: 'invalid_content',
    message: /must be a mapping.*got a list/,
  });
  t.match(mergeFrontmatter(null, '---\nt: a\nt: b\n---\nbody\n'), { reason: 'invalid_content', message: /unique|duplicate/i });
  t.equal(
    text(mergeFrontmatter(null, '---\nnot closed: [\nso this is body text\n')),
    '---\nnot closed: [\nso this is body text\n',
    'an unclosed fence is body, not frontmatter',
  );
});

t.test('the body is preserved exactly, whatever it holds', async (t) => {
  const body = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\r\n', '\r', '---', '...', ':', '#', '\t', 'é', '😀', '\ufeff') });
  const old = fc.constantFrom(null, 'plain old\n', '---\nkeep: 1\n---\nold\n', '---\nbad: [\n---\nold\n');
  fc.assert(
    fc.property(old, body, (existing, b) => {
      const withBlock = text(mergeFrontmatter(existing, `---\nnew: 2\n---\n${b}`));
      if (!withBlock.endsWith(`---\n${b}`)) return false;
      const bare = b.replace(/^\ufeff/, ''); // a leading BOM belongs to the file, so it moves to the very front
      if (bare.startsWith('---')) return true; // that body would itself open a frontmatter block
      const merged = text(mergeFrontmatter(existing, b));
      return merged.endsWith(bare) && merged.startsWith('\ufeff') === b.startsWith('\ufeff');
    }),
    { seed: 20261122, numRuns: 1000 },
  );
  t.pass('1,000 random bodies came through unchanged');
});

t.test('through the writer: frontmatter survives a body-only rewrite and bad YAML changes nothing', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const file = path.join(s.vault, 'Inbox', 'existing.md');
  const ok = await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: 'rewritten body\n' }, AGENT);
  t.equal(ok.ok, true);
  t.equal(readFileSync(file, 'utf8'), '---\ntitle: Existing\n---\nrewritten body\n');
  const before = snapshot(s.top);
  const bad = await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: '---\ntitle: [oops\n---\nbody\n' }, AGENT);
  t.match(bad, { ok: false, reason: 'invalid_content', message: /not valid YAML/ });
  t.same(snapshot(s.top), before, 'the note is unchanged');
});
