// Determinism: the same bytes give the same note and hashes, so unchanged chunks reuse their vectors.
import t from 'tap';
import { parse } from './helpers.js';
import { sha256Hex } from '../../messages/hash.js';

const text = `---\ntitle: Atlas\n---\n# Atlas\n\n${'The migration moves billing to Postgres. '.repeat(60)}\n\n## Risks\n\nDowntime.\n`;

t.test('parsing twice gives identical output', async (t) => {
  t.same(parse(text, 'Projects/Atlas.md', { maxTokens: 64 }), parse(text, 'Projects/Atlas.md', { maxTokens: 64 }));
});

t.test('hashes are sha256 of the bytes and of each chunk content', async (t) => {
  const note = parse(text, 'Projects/Atlas.md', { maxTokens: 64 });
  t.equal(note.contentHash, sha256Hex(text));
  for (const c of note.chunks) t.equal(c.hash, sha256Hex(c.content));
});

t.test('an edit in one section leaves the other sections\u2019 chunk hashes alone', async (t) => {
  const before = parse(text, 'Projects/Atlas.md', { maxTokens: 64 }).chunks;
  const after = parse(text.replace('Downtime.', 'Downtime of ten minutes.'), 'Projects/Atlas.md', { maxTokens: 64 }).chunks;
  t.same(
    after.slice(0, -1).map((c) => c.hash),
    before.slice(0, -1).map((c) => c.hash),
  );
  t.not(after.at(-1)!.hash, before.at(-1)!.hash);
});
