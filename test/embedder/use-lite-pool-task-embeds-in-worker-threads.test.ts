// The embedder's piscina task runs use-lite in real worker threads, each with its own session, and agrees with the
// provider run in this thread.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import t from 'tap';
import type { EmbedResult, EmbedTask } from '../../actors/embedder/pool-task.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

t.test('two pool threads embed batches that match the provider run in this thread', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(cacheDir, { recursive: true, force: true }));
  const pool = new Piscina({
    filename: new URL('../../actors/embedder/pool-task.js', import.meta.url).href,
    minThreads: 2,
    maxThreads: 2,
  });
  t.teardown(() => pool.destroy());

  const batches = Array.from({ length: 6 }, (_, b) =>
    Array.from({ length: 5 }, (_, i) => `batch ${b} text ${i} about ${'notes '.repeat(i)}`),
  );
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  // Both threads start at once and race to build the model file: the atomic write keeps that safe.
  const results = (await Promise.all(batches.map((texts) => pool.run({ texts, settings } satisfies EmbedTask)))) as EmbedResult[];

  const provider = await createUseLiteProvider({ cacheDir });
  t.teardown(() => provider.close());
  for (let b = 0; b < batches.length; b++) {
    const expected = await provider.embed(batches[b]!);
    const r = results[b]!;
    t.match(r.info, { provider: 'use-lite', version: '0.2.0', dim: 512 });
    t.equal(r.data.length, 5 * 512);
    const rows = Array.from({ length: 5 }, (_, i) => r.data.subarray(i * 512, (i + 1) * 512));
    t.ok(
      rows.every((v, i) => dot(v, expected[i]!) > 0.999999),
      `batch ${b} matches, in order`,
    );
  }
});
