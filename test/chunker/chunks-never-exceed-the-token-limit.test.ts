// Property: whatever markdown comes in, every chunk fits maxTokens (context line included) and none is empty.
import fc from 'fast-check';
import t from 'tap';
import { parseNote } from '../../actors/chunker/parse-note.js';
import { vaultPath } from '../../messages/common.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { charTokens, wordTokens } from './helpers.js';

const word = fc.oneof(
  fc.constantFrom('atlas', 'migration', 'Postgres', 'schema', 'the', 'a', 'of', 'billing', 'export', 'bug', 'Maya'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !/\s/.test(s)),
  fc.constantFrom('x'.repeat(300), 'https://example.com/' + 'a/'.repeat(80), '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂'),
);
const sentence = fc.array(word, { minLength: 1, maxLength: 40 }).map((ws) => ws.join(' ') + '.');
const paragraph = fc
  .tuple(fc.array(sentence, { minLength: 1, maxLength: 12 }), fc.constantFrom(' ', '\n'))
  .map(([ss, sep]) => ss.join(sep));
const block = fc.oneof(
  paragraph,
  fc
    .tuple(fc.integer({ min: 1, max: 6 }), fc.array(word, { minLength: 0, maxLength: 30 }))
    .map(([n, ws]) => `${'#'.repeat(n)} ${ws.join(' ')}`),
  fc.array(paragraph, { minLength: 1, maxLength: 8 }).map((ps) => ps.map((p) => `- ${p.replaceAll('\n', '\n  ')}`).join('\n')),
  fc
    .array(fc.array(word, { maxLength: 10 }), { minLength: 1, maxLength: 60 })
    .map((ls) => '```\n' + ls.map((l) => l.join(' ')).join('\n') + '\n```'),
  fc
    .array(fc.array(word, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 30 })
    .map((rows) => '| a | b |\n|---|---|\n' + rows.map((r) => `| ${r[0]} | ${r[1]} |`).join('\n')),
  paragraph.map((p) => '> ' + p.replaceAll('\n', '\n> ')),
);
const note = fc.array(block, { minLength: 0, maxLength: 14 }).map((bs) => bs.join('\n\n'));

type Test = Parameters<Parameters<typeof t.test>[0]>[0];

function holds(t: Test, tokens: TokenCounter, maxTokens: number, overlapTokens: number): void {
  fc.assert(
    fc.property(
      note,
      fc.constantFrom('Inbox/n.md', 'People/A very long title that repeats itself a great many times over and over.md'),
      (text, file) => {
        const result = parseNote(vaultPath(file), Buffer.from(text), tokens, { maxTokens, overlapTokens, maxBytes: 1e7 });
        if (!result.ok) return false;
        const { chunks } = result.note;
        if (chunks.length === 0) return false;
        return chunks.every(
          (c, i) =>
            c.seq === i &&
            c.content.trim() !== '' &&
            c.tokenCount === tokens.count(c.content) &&
            c.tokenCount <= maxTokens &&
            c.startLine <= c.endLine,
        );
      },
    ),
    { seed: 20261116, numRuns: 100 },
  );
  t.pass('property held');
}

t.test('chunks fit the limit with a word tokenizer', async (t) => holds(t, wordTokens(), 64, 16));
t.test('chunks fit the limit with a tokenizer where joining text costs extra tokens', async (t) => holds(t, charTokens(200), 200, 30));
t.test('chunks fit the smallest limit the config allows', async (t) => holds(t, wordTokens(), 16, 16));
t.test('the model window caps a larger maxTokens', async (t) => holds(t, wordTokens(48), 48, 4));
