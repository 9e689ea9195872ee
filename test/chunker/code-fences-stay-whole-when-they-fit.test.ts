// Block boundaries: a fenced code block, list item or table that fits is never cut, even when its neighbours are split.
import t from 'tap';
import { bodyOf, parse } from './helpers.js';

const prose = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i} of the explanation goes here.`).join('\n');

t.test('a fence that fits a chunk is kept whole, with its opening and closing fences', async (t) => {
  const fence = '```ts\n' + Array.from({ length: 12 }, (_, i) => `const v${i} = ${i};`).join('\n') + '\n```';
  const text = `# Setup\n\n${prose(8)}\n\n${fence}\n\n${prose(8)}\n`;
  const chunks = parse(text, 'n.md', { maxTokens: 100, overlapTokens: 0 }).chunks;
  t.ok(chunks.length >= 3, `split into ${chunks.length} chunks`);
  const holding = chunks.filter((c) => c.content.includes('const v0'));
  t.equal(holding.length, 1);
  t.ok(bodyOf(holding[0]!.content).includes(fence), 'the whole fence is in one chunk');
});

t.test('a fence longer than a chunk is cut on line boundaries', async (t) => {
  const fence = '```\n' + Array.from({ length: 60 }, (_, i) => `step_${i}();`).join('\n') + '\n```';
  const chunks = parse(fence, 'n.md', { maxTokens: 60, overlapTokens: 0 }).chunks;
  t.ok(chunks.length > 1);
  for (const c of chunks) t.match(bodyOf(c.content), /^(```|step_\d+\(\);)(\n(step_\d+\(\);|```))*$/, 'whole lines only');
});

t.test('list items and table rows stay whole when a long list or table is split', async (t) => {
  const list = Array.from({ length: 30 }, (_, i) => `- item ${i} has a short description`).join('\n');
  for (const c of parse(list, 'n.md', { maxTokens: 40, overlapTokens: 0 }).chunks) {
    t.match(bodyOf(c.content), /^(- item \d+ has a short description\n?)+$/);
  }
  const table = '| k | v |\n|---|---|\n' + Array.from({ length: 40 }, (_, i) => `| key${i} | value ${i} |`).join('\n');
  for (const c of parse(table, 'n.md', { maxTokens: 40, overlapTokens: 0 }).chunks) {
    for (const line of bodyOf(c.content).split('\n')) t.match(line, /^\|.*\|$/);
  }
});

t.test('a lead-in ending in a colon goes with what it introduces', async (t) => {
  // 40 tokens of prose + the 3-token lead-in fit a chunk; the 20-token fence does not fit after them.
  const fence = '```sh\nmake deploy ENV=staging\nmake verify ENV=staging\n```';
  const text = `${prose(5)}\n\nRun this:\n\n${fence}\n`;
  const chunks = parse(text, 'n.md', { maxTokens: 60, overlapTokens: 0 }).chunks;
  t.equal(chunks.length, 2);
  t.equal(bodyOf(chunks[1]!.content), `Run this:\n\n${fence}`);
});
