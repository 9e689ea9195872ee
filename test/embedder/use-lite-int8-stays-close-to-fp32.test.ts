// The int8 variant of use-lite is its own model identity, and its vectors stay within cosine 0.998 of fp32's.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { rustBookChunks } from '../helpers/corpora.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

t.test('int8 vectors are close to fp32 vectors and carry their own version', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fp32 = await createUseLiteProvider({ cacheDir: dir });
  const int8 = await createUseLiteProvider({ cacheDir: dir, quantize: 'int8' });
  t.teardown(async () => {
    await fp32.close();
    await int8.close();
  });
  t.equal(int8.info.version, '0.2.0-int8-r2', 'an index built with int8 never mixes with fp32 vectors, nor with the r1 int8 model');
  t.equal(fp32.info.version, '0.2.0');

  const texts = rustBookChunks(48);
  const [a, b] = [await fp32.embed(texts), await int8.embed(texts)];
  const cosines = a.map((v, i) => dot(v, b[i]!));
  const min = Math.min(...cosines);
  const mean = cosines.reduce((s, c) => s + c, 0) / cosines.length;
  t.comment(`int8 vs fp32 over ${texts.length} chunks: min cosine ${min.toFixed(5)}, mean ${mean.toFixed(5)}`);
  t.ok(min >= 0.998, `every chunk keeps cosine ≥ 0.998 (min ${min.toFixed(5)})`);
  t.ok(mean >= 0.999, `mean cosine ≥ 0.999 (${mean.toFixed(5)})`);
});
