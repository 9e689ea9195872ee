// use-lite vectors carry meaning: a sentence is closer to its paraphrase than to unrelated text.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

// [query, related, unrelated]
const TRIPLES: Array<[string, string, string]> = [
  [
    'How do I extract a tar.gz archive?',
    'Unpack a gzipped tarball into the current directory',
    'The recipe needs two cups of flour and an egg',
  ],
  ['The cat is sleeping on the sofa', 'A kitten naps on the couch', 'Quarterly revenue grew by twelve percent'],
  [
    'Rust prevents data races with ownership and borrowing',
    'The borrow checker stops two threads from mutating the same memory',
    'She planted tomatoes in the garden last spring',
  ],
  ['What is the weather like tomorrow?', 'Will it rain or be sunny tomorrow?', 'Install the package with npm install'],
  ['Delete a git branch', 'Remove a branch from the repository with git', 'The orchestra played a symphony by Brahms'],
];

t.test('a sentence scores higher against its paraphrase than against unrelated text', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const provider = await createUseLiteProvider({ cacheDir: dir });
  t.teardown(() => provider.close());
  t.same(provider.info, { provider: 'use-lite', name: 'universal-sentence-encoder-lite', version: '0.2.0', dim: 512 });

  const vectors = await provider.embed(TRIPLES.flat());
  for (let i = 0; i < TRIPLES.length; i++) {
    const [q, related, unrelated] = [vectors[3 * i]!, vectors[3 * i + 1]!, vectors[3 * i + 2]!];
    const near = dot(q, related);
    const far = dot(q, unrelated);
    t.ok(near > far + 0.1, `"${TRIPLES[i]![0]}": related ${near.toFixed(3)} > unrelated ${far.toFixed(3)} + 0.1`);
  }
});
