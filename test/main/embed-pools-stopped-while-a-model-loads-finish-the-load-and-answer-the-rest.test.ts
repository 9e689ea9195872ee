// Stopping the pools while a model is still loading (a daemon stopped within its first second) lets the thread
// finish inside onnxruntime rather than ending it there, which would abort the whole process; tasks still
// waiting for a thread are answered `pool_stopped` at once.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import type { EmbedTask, PoolOutcome } from '../../actors/embedder/pool-task.js';

t.test('destroy during the first model load: the load finishes, the waiting task is refused, the process lives', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-pools-stop-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir: path.join(dir, 'models'), quantize: 'fp32' };
  for (let round = 0; round < 3; round++) {
    const pools = new EmbedPools(1);
    const loading = pools.run('bulk', { settings, texts: ['the first task loads the model'] });
    const queued = pools.run('bulk', { settings, texts: ['this one waits for the thread'] });
    // let the thread start and enter the model build, then stop the pools under it
    await new Promise((r) => setImmediate(r));
    await pools.destroy();
    const [first, second] = (await Promise.all([loading, queued])) as [PoolOutcome, PoolOutcome];
    t.ok(first.ok, `round ${round}: the task that was loading the model finished`);
    t.match(second, { ok: false, code: 'pool_stopped' }, `round ${round}: the waiting task was answered pool_stopped`);
    t.same(await pools.run('bulk', { settings, texts: ['after'] }), {
      ok: false,
      code: 'pool_stopped',
      message: 'the embedding pools are shutting down',
    });
  }
});
