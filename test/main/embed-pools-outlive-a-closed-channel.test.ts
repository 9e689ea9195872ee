// Closing an actor incarnation's channel to main's pools does not stop the pools: the threads, with their models
// loaded, serve the next incarnation's channel.
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import { poolClient } from '../../actors/embedder/pool-api.js';
import { splitRows, type EmbedTask } from '../../actors/embedder/pool-task.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

t.test('a new channel after the old one closed is served by the same loaded model', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-pools-'));
  const cacheDir = path.join(dir, 'models');
  const pools = new EmbedPools(1);
  t.teardown(async () => {
    await pools.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  const texts = ['The heron waits by the weir.', 'A recipe for lentil soup.'];

  const first = pools.channel();
  const before = splitRows(await poolClient(first.port)('bulk', { settings, texts }));
  const closed = once(first.port, 'close');
  first.close(); // the embedder incarnation exited (or was restarted)
  await closed;

  // no model could be built now: the cache folder is gone and a file stands in its place
  rmSync(cacheDir, { recursive: true, force: true });
  writeFileSync(cacheDir, 'not a folder');

  const second = pools.channel();
  t.teardown(() => second.close());
  const after = splitRows(await poolClient(second.port)('bulk', { settings, texts }));
  t.equal(after.length, 2, 'the next incarnation is served');
  t.ok(
    after.every((v, i) => dot(v, before[i]!) > 0.99999),
    'by the model loaded before the first channel closed',
  );
});
