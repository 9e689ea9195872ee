// The bundled example vault, chunked with the real use-lite tokenizer: fits the window and has the promised shape.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { loadUseLiteTokenizer, USE_LITE_MAX_TOKENS } from '../../actors/embedder/use-lite/tokenizer.js';
import { parseNote } from '../../actors/chunker/parse-note.js';
import { vaultPath, type ParsedNote } from '../../messages/common.js';
import { bodyOf, fileLines } from './helpers.js';

// Compiled to dist/test/chunker/, so the repository root is three levels up.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/vault');
const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md') && !f.startsWith('Templates') && !f.startsWith('.obsidian'))
  .map((f) => f.replaceAll('\\', '/'))
  .sort();
const tokens = loadUseLiteTokenizer();
const notes: ParsedNote[] = files.map((f) => {
  const r = parseNote(vaultPath(f), readFileSync(path.join(root, f)), tokens, {
    maxTokens: USE_LITE_MAX_TOKENS,
    overlapTokens: 16,
    maxBytes: 2_000_000,
  });
  if (!r.ok) throw new Error(`${f}: ${r.message}`);
  return r.note;
});

t.test('every chunk of every note fits the model window, counted by the model tokenizer', async (t) => {
  t.ok(notes.length >= 18, `${notes.length} notes`);
  for (const n of notes) {
    t.ok(n.chunks.length > 0, `${n.path} has chunks`);
    for (const c of n.chunks) {
      if (c.tokenCount > USE_LITE_MAX_TOKENS || tokens.count(c.content) !== c.tokenCount)
        t.fail(`${n.path} chunk ${c.seq}: ${c.tokenCount} tokens`);
      const body = bodyOf(c.content);
      if (n.chunks.length > 1 || body !== c.content)
        t.ok(fileLines(readFileSync(path.join(root, n.path), 'utf8'), c.startLine, c.endLine).includes(body), `${n.path} #${c.seq} lines`);
    }
  }
  t.ok(
    notes.some((n) => n.chunks.length >= 5),
    'some notes split into several chunks',
  );
});

t.test('exactly one note is sensitive, and no frontmatter is malformed', async (t) => {
  t.same(
    notes.filter((n) => n.sensitive).map((n) => n.path),
    ['Projects/Staging credentials.md'],
  );
  t.same(
    notes.filter((n) => n.frontmatterError).map((n) => n.path),
    [],
  );
});

t.test('wikilinks resolve, headings included, except the one deliberately missing note', async (t) => {
  const byName = new Map<string, ParsedNote>();
  for (const n of notes) {
    byName.set(n.path.replace(/\.md$/, '').toLowerCase(), n);
    byName.set(path.posix.basename(n.path, '.md').toLowerCase(), n);
  }
  const unresolved: string[] = [];
  for (const n of notes) {
    for (const link of n.links) {
      const target = link.target === '' ? n : byName.get(link.target.toLowerCase());
      if (!target) unresolved.push(link.target);
      else if (link.heading)
        t.ok(
          target.chunks.some((c) => c.headingPath.includes(link.heading!)),
          `${n.path} → ${link.target}#${link.heading}`,
        );
    }
  }
  t.same(unresolved, ['Pricing experiments']);
});
