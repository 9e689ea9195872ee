// A task whose provider cannot start comes back from main's pools as data with the provider's reason code (an
// Error with that `code` on the actor's side of the port); the pool thread is not lost and serves the next task.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import { poolClient } from '../../actors/embedder/pool-api.js';
import { splitRows, type EmbedTask } from '../../actors/embedder/pool-task.js';

t.test('a missing model is reason model_missing, and the same pool then embeds with a model that is there', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-pools-'));
  const pools = new EmbedPools(1);
  const ch = pools.channel();
  t.teardown(async () => {
    ch.close();
    await pools.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const run = poolClient(ch.port);
  const missing: EmbedTask['settings'] = { kind: 'onnx', modelDir: path.join(dir, 'no-model-here') };

  const direct = await pools.run('query', { settings: missing, texts: ['x'] });
  t.match(direct, { ok: false, code: 'model_missing', message: /no model\.onnx/ }, 'main sees the failure as data');

  await t.rejects(
    run('query', { settings: missing, texts: ['x'] }),
    { code: 'model_missing', message: /no model\.onnx/ },
    'the actor sees an Error with the reason code',
  );

  const useLite: EmbedTask['settings'] = { kind: 'use-lite', cacheDir: path.join(dir, 'models'), quantize: 'fp32' };
  const r = await run('query', { settings: useLite, texts: ['The heron waits by the weir.'] });
  t.match(r.info, { provider: 'use-lite', dim: 512 }, 'the one query thread still serves');
  t.equal(splitRows(r).length, 1);
});
