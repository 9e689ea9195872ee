// startLine/endLine are file lines (frontmatter counted) that hold exactly the chunk's text, so an editor can jump there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import type { ParsedNote } from '../../messages/common.js';
import { corpusDir, corpusFiles } from '../helpers/corpora.js';
import { bodyOf, fileLines, parse } from './helpers.js';

/** The body must sit in the line range, starting on its first line and ending on its last. */
function checkLines(t: Test, text: string, note: ParsedNote): void {
  for (const c of note.chunks) {
    const body = bodyOf(c.content);
    const range = fileLines(text, c.startLine, c.endLine);
    const at = range.indexOf(body);
    const first = fileLines(text, c.startLine, c.startLine);
    const last = fileLines(text, c.endLine, c.endLine);
    if (at < 0 || at > first.length || at + body.length < range.length - last.length) {
      t.fail(`${note.path} chunk ${c.seq} (lines ${c.startLine}-${c.endLine}) does not match its lines`, { body, range });
      return;
    }
  }
  t.pass(`${note.path}: ${note.chunks.length} chunks`);
}

t.test('line ranges count the frontmatter and match the text', async (t) => {
  const text = '---\ntitle: T\ntags: [a]\n---\n\n# Heading\n\nFirst paragraph.\n\n```js\nconst x = 1;\n```\n';
  const note = parse(text);
  t.same(
    note.chunks.map((c) => [c.startLine, c.endLine]),
    [[8, 12]],
  );
  t.equal(bodyOf(note.chunks[0]!.content), fileLines(text, 8, 12));
  checkLines(t, text, note);
});

t.test('line ranges hold for long notes split mid-paragraph, and for CRLF files', async (t) => {
  const para = Array.from({ length: 40 }, (_, i) => `Sentence ${i} talks about the migration plan in some detail.`).join(' ');
  const text = `# Big\n\n${para}\n\n- item one\n- item two\n`;
  const note = parse(text, 'big.md', { maxTokens: 40, overlapTokens: 8 });
  t.ok(note.chunks.length > 5);
  checkLines(t, text, note);
  const crlf = text.replaceAll('\n', '\r\n');
  checkLines(t, crlf, parse(crlf, 'big.md', { maxTokens: 40, overlapTokens: 8 }));
});

t.test('line ranges hold on real documents (the Rust book)', async (t) => {
  const dir = corpusDir('rust-book');
  const files = corpusFiles('rust-book').slice(0, 30);
  t.equal(files.length, 30, 'thirty chapters are read');
  for (const f of files) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    checkLines(t, text, parse(text, f, { maxTokens: 64 }));
  }
});
