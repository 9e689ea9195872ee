// Main's embedding pools, reached the way actors reach them (a MessagePort from channel(), called with poolClient):
// the bulk and the query pool each embed a batch with the real use-lite model in worker threads, as unit vectors in
// the caller's order, and agree with each other.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import { poolClient } from '../../actors/embedder/pool-api.js';
import { splitRows, type EmbedTask } from '../../actors/embedder/pool-task.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

t.test('both pools embed a batch through a port as unit vectors in order', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-pools-'));
  const pools = new EmbedPools(1);
  const ch = pools.channel();
  t.teardown(async () => {
    ch.close();
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const run = poolClient(ch.port);
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  const texts = ['The heron waits by the weir.', 'Quarterly tax forms are due in April.', 'Lentil soup with cumin and lemon.', ''];

  const [bulk, query] = await Promise.all([run('bulk', { settings, texts }), run('query', { settings, texts })]);
  for (const [name, r] of [
    ['bulk', bulk],
    ['query', query],
  ] as const) {
    t.match(r.info, { provider: 'use-lite', dim: 512 }, `${name}: the use-lite model answered`);
    const rows = splitRows(r);
    t.equal(rows.length, texts.length, `${name}: one vector per text`);
    t.ok(
      rows.every((v) => v.length === 512 && Math.abs(dot(v, v) - 1) < 1e-4),
      `${name}: unit vectors`,
    );
  }

  // order: each row is the vector of the text at its place, as embedding that text alone gives it
  const bulkRows = splitRows(bulk);
  const queryRows = splitRows(query);
  for (let i = 0; i < texts.length; i++) {
    const [alone] = splitRows(await run('query', { settings, texts: [texts[i]!] }));
    t.ok(dot(bulkRows[i]!, alone!) > 0.99999, `bulk row ${i} is text ${i}'s vector`);
    t.ok(dot(queryRows[i]!, alone!) > 0.99999, `query row ${i} is text ${i}'s vector`);
  }
  t.ok(dot(bulkRows[0]!, bulkRows[1]!) < 0.9, 'different texts give different vectors (so the order check means something)');
});
