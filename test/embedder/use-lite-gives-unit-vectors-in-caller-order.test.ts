// use-lite returns one 512-float unit vector per text, in the callers' order, with a defined vector for the empty text.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

t.test('every vector is unit length, including the empty text, and batches keep the callers order', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const provider = await createUseLiteProvider({ cacheDir: dir, intraOpThreads: 2 });
  t.teardown(() => provider.close());

  t.same(await provider.embed([]), [], 'no texts, no vectors');
  // More texts than one run (32) and of mixed lengths, so sorting by length and splitting into runs is exercised.
  const texts = Array.from({ length: 70 }, (_, i) => (i % 7 === 0 ? '' : `note ${i}: ${'word '.repeat(i % 50)}`));
  const vectors = await provider.embed(texts);
  t.equal(vectors.length, texts.length);
  for (const v of vectors) t.ok(Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-5 && v.length === 512, 'a 512-float unit vector');
  const [empty] = await provider.embed(['']);
  t.ok(dot(empty!, vectors[0]!) > 0.999999, 'the empty text always gives the same (defined) vector');
  const alone = await provider.embed([texts[13]!, texts[1]!]);
  t.ok(dot(alone[0]!, vectors[13]!) > 0.999999 && dot(alone[1]!, vectors[1]!) > 0.999999, 'each text keeps its own vector');

  await provider.close();
  await t.rejects(provider.embed(['x']), /after close/, 'a closed provider refuses work');
});
