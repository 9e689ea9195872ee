// The bulk pool's threads, each holding a model session, end after embedder.release_after_ms without work (on the
// injected clock), so the daemon gives that memory back once indexing drains; the next burst starts them again and
// gets the same vectors. Work arriving before the deadline keeps them.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import { splitRows, type EmbedTask, type PoolOutcome } from '../../actors/embedder/pool-task.js';
import { ManualClock } from '../helpers/manual-clock.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const threadsNow = (): number => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
const rows = (o: PoolOutcome): Float32Array[] => {
  if (!o.ok) throw new Error(`${o.code}: ${o.message}`);
  return splitRows(o.result);
};

t.test('idle bulk threads end after release_after_ms and start again for the next burst', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-release-'));
  const clock = new ManualClock();
  const pools = new EmbedPools(2, 0, { releaseAfterMs: 10_000, clock });
  t.teardown(async () => {
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  const texts = Array.from({ length: 12 }, (_, i) => `Note ${i}: the heron waits by the weir for fish number ${i}.`);
  const half = { settings, texts: texts.slice(0, 6) };
  const other = { settings, texts: texts.slice(6) };

  const threadsBefore = threadsNow();
  const [a, b] = await Promise.all([pools.run('bulk', half), pools.run('bulk', other)]);
  const first = [...rows(a), ...rows(b)];
  t.ok(pools.loaded('bulk'), 'the burst started the bulk threads');
  const threadsLoaded = threadsNow();
  t.ok(threadsLoaded >= threadsBefore + 2, `two bulk threads run (${threadsBefore} → ${threadsLoaded} threads)`);

  clock.advance(9_999);
  t.ok(pools.loaded('bulk'), 'kept until the deadline');
  t.equal(pools.releases, 0);
  clock.advance(1);
  t.notOk(pools.loaded('bulk'), 'released at release_after_ms without work');
  t.equal(pools.releases, 1);
  await pools.released();
  const threadsReleased = threadsNow();
  t.ok(threadsReleased <= threadsLoaded - 2, `the threads ended (${threadsLoaded} → ${threadsReleased})`);

  const [c, d] = await Promise.all([pools.run('bulk', half), pools.run('bulk', other)]);
  const again = [...rows(c), ...rows(d)];
  t.ok(pools.loaded('bulk'), 'the next burst started them again');
  t.ok(
    again.every((v, i) => dot(v, first[i]!) > 0.99999),
    'with the same vectors as before the release',
  );

  // work before the deadline postpones it
  clock.advance(9_000);
  rows(await pools.run('bulk', half));
  clock.advance(9_000);
  t.ok(pools.loaded('bulk'), 'a task 9 s into the idle time keeps the threads for another 10 s');
  clock.advance(1_000);
  t.notOk(pools.loaded('bulk'), 'released 10 s after that task');
  t.equal(pools.releases, 2);
});

t.test('release_after_ms 0 keeps the bulk threads', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-release-'));
  const clock = new ManualClock();
  const pools = new EmbedPools(1, 0, { releaseAfterMs: 0, clock });
  t.teardown(async () => {
    await pools.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir, quantize: 'fp32' };
  rows(await pools.run('bulk', { settings, texts: ['one', 'two', 'three', 'four', 'five'] }));
  clock.advance(24 * 3_600_000);
  t.ok(pools.loaded('bulk'));
  t.equal(pools.releases, 0);
});
