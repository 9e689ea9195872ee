// While the bulk threads are released, a small bulk task (a person's edit: a chunk or two) runs on the query thread's
// loaded model instead of starting the bulk threads; a second task arriving meanwhile (a burst) starts them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import { splitRows, type EmbedTask, type PoolOutcome } from '../../actors/embedder/pool-task.js';
import { ManualClock } from '../helpers/manual-clock.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const rows = (o: PoolOutcome): Float32Array[] => {
  if (!o.ok) throw new Error(`${o.code}: ${o.message}`);
  return splitRows(o.result);
};

t.test('a small bulk task borrows the query thread; a burst starts the bulk threads', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-borrow-'));
  const pools = new EmbedPools(2, 0, { releaseAfterMs: 10_000, clock: new ManualClock() });
  t.teardown(async () => {
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  const edit = ['## Herons\nThe heron waits by the weir.', 'Lentil soup with cumin and lemon.'];
  const reference = rows(await pools.run('query', { settings, texts: edit }));
  t.notOk(pools.loaded('bulk'), 'searching loads only the query thread');

  const borrowed = rows(await pools.run('bulk', { settings, texts: edit }));
  t.notOk(pools.loaded('bulk'), 'a two-text bulk task did not start the bulk threads');
  t.ok(
    borrowed.every((v, i) => dot(v, reference[i]!) > 0.99999),
    'and was embedded by the same model',
  );

  const big = Array.from({ length: 5 }, (_, i) => `Paragraph ${i} of a long note about rivers.`);
  rows(await pools.run('bulk', { settings, texts: big }));
  t.ok(pools.loaded('bulk'), 'a task of more than 4 texts starts the bulk threads');
});

t.test('two small tasks at once: the second starts the bulk threads', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-borrow-'));
  const pools = new EmbedPools(2, 0, { releaseAfterMs: 10_000, clock: new ManualClock() });
  t.teardown(async () => {
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  rows(await pools.run('query', { settings, texts: ['warm'] }));
  const both = Promise.all([pools.run('bulk', { settings, texts: ['one'] }), pools.run('bulk', { settings, texts: ['two'] })]);
  t.ok(pools.loaded('bulk'), 'the query thread takes one borrower at a time');
  const [a, b] = await both;
  t.equal(rows(a).length + rows(b).length, 2, 'both answered');
});

t.test('other settings than the query thread was loaded with never borrow it', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-borrow-'));
  const pools = new EmbedPools(1, 0, { releaseAfterMs: 10_000, clock: new ManualClock() });
  t.teardown(async () => {
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  rows(await pools.run('query', { settings: { kind: 'use-lite', cacheDir, quantize: 'fp32' }, texts: ['warm'] }));
  rows(await pools.run('bulk', { settings: { kind: 'use-lite', cacheDir, quantize: 'int8' }, texts: ['one'] }));
  t.ok(pools.loaded('bulk'), 'an int8 task went to the bulk threads, not to the fp32 query session');
});
