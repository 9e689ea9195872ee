// Overlap: a paragraph cut across chunks repeats a short tail; chunks cut between whole blocks do not.
import t from 'tap';
import { bodyOf, parse, wordTokens } from './helpers.js';

t.test('a cut inside a paragraph repeats at most overlapTokens of the previous chunk', async (t) => {
  const para = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} adds one more fact.`).join(' ');
  const chunks = parse(para, 'n.md', { maxTokens: 40, overlapTokens: 8 }).chunks;
  t.ok(chunks.length > 3);
  const tokens = wordTokens();
  for (let i = 1; i < chunks.length; i++) {
    const prev = bodyOf(chunks[i - 1]!.content);
    const cur = bodyOf(chunks[i]!.content);
    let shared = 0;
    for (let n = Math.min(prev.length, cur.length); n > 0; n--) {
      if (prev.endsWith(cur.slice(0, n))) {
        shared = n;
        break;
      }
    }
    const overlap = cur.slice(0, shared).trim();
    t.ok(overlap.length > 0, `chunk ${i} starts with the end of chunk ${i - 1}`);
    t.ok(tokens.count(overlap) <= 8, `overlap "${overlap}" is at most 8 tokens`);
  }
});

t.test('no overlap when the cut falls between blocks, or when overlapTokens is 0', async (t) => {
  const items = Array.from({ length: 20 }, (_, i) => `- item ${i} is on its own line`).join('\n');
  const blocks = parse(items, 'n.md', { maxTokens: 40, overlapTokens: 8 }).chunks;
  for (let i = 1; i < blocks.length; i++) t.ok(blocks[i]!.startLine > blocks[i - 1]!.endLine);
  const para = 'One two three four five six seven eight nine ten. '.repeat(20);
  const none = parse(para, 'n.md', { maxTokens: 40, overlapTokens: 0 }).chunks;
  const joined = none.map((c) => bodyOf(c.content)).join(' ');
  t.equal(joined.split(/\s+/).length, para.trim().split(/\s+/).length);
});
