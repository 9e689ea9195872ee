// The Batcher sends a batch the moment it holds `maxBatch` texts, without waiting for the window, and reports each
// batch's size and duration by its clock.
import t from 'tap';
import { Batcher } from '../../actors/embedder/batcher.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { batchRuns, ids, texts } from '../helpers/batch-runs.js';

t.test('eight texts with maxBatch 4 and two threads go as two full batches at once', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const reported: Array<[number, number]> = [];
  const batcher = new Batcher({ maxBatch: 4, windowMs: 50, concurrency: 2, run: r.run, clock, onBatch: (n, ms) => reported.push([n, ms]) });

  const done = batcher.embed(texts(8));
  t.same(
    r.runs.map((x) => x.texts),
    [texts(4), texts(4, 4)],
    'both batches started inside embed(), in order',
  );
  t.same(clock.pending(), [], 'no window timer: nothing waits');
  t.equal(batcher.queued, 0);
  t.equal(batcher.running, 2);

  clock.advance(25);
  r.runs[1]!.answer();
  r.runs[0]!.answer();
  t.same(ids(await done), [0, 1, 2, 3, 4, 5, 6, 7], "vectors come back in the caller's order, whichever batch answered first");
  t.same(
    reported,
    [
      [4, 25],
      [4, 25],
    ],
    'each batch reported with its size and time by the clock',
  );
  t.equal(batcher.running, 0);
});

t.test('a caller whose texts complete a partial batch sends it at once and stops its window', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 4, windowMs: 50, concurrency: 1, run: r.run, clock });

  const first = batcher.embed(texts(3));
  t.equal(r.runs.length, 0, 'three of four: waits');
  t.same(clock.pending(), [50]);
  clock.advance(20);
  const second = batcher.embed(texts(1, 3));
  t.same(
    r.runs.map((x) => x.texts),
    [texts(4)],
    'the fourth text fills the batch, which goes at t = 20',
  );
  t.same(clock.pending(), [], 'the window timer is cleared');

  r.runs[0]!.answer();
  t.same(ids(await first), [0, 1, 2]);
  t.same(ids(await second), [3]);
  t.equal(r.runs.length, 1, 'one model call for both callers');
});
