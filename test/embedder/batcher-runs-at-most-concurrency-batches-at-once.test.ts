// The Batcher never has more than `concurrency` model calls running (one per pool thread): the rest queue, and each
// finished call starts the next full batch at once.
import t from 'tap';
import { Batcher } from '../../actors/embedder/batcher.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { batchRuns, ids, texts } from '../helpers/batch-runs.js';

t.test('ten texts in batches of two on two threads run two at a time, in order', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 2, windowMs: 50, concurrency: 2, run: r.run, clock });

  const done = batcher.embed(texts(10));
  t.equal(r.runs.length, 2, 'two calls start');
  t.equal(batcher.running, 2);
  t.equal(batcher.queued, 6);
  t.same(clock.pending(), [], 'no timer while every thread is busy');

  // finish the calls one at a time, oldest last, and watch each free thread take the next batch
  for (let started = 2; started < 5; started++) {
    r.runs[started - 1]!.answer();
    await r.until(started + 1);
    t.equal(batcher.running, 2, `still two running after call ${started + 1} started`);
  }
  r.runs[0]!.answer();
  r.runs[4]!.answer();
  t.same(ids(await done), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "every vector in the caller's order");
  t.same(
    r.runs.map((x) => x.texts),
    [texts(2), texts(2, 2), texts(2, 4), texts(2, 6), texts(2, 8)],
    'batches in arrival order',
  );
  t.equal(r.maxAtOnce(), 2, 'never more than two calls at once');
  t.equal(batcher.running, 0);
});

t.test('a partial batch waiting while every thread is busy goes when a thread frees, after its window', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 2, windowMs: 50, concurrency: 1, run: r.run, clock });

  const done = batcher.embed(texts(3));
  t.equal(r.runs.length, 1);
  clock.advance(100);
  t.equal(r.runs.length, 1, 'the one thread is busy: the third text waits however long');
  const armed = clock.nextScheduled(); // the freed thread arms a window for the leftover text
  r.runs[0]!.answer();
  await armed;
  t.same(clock.pending(), [150]);
  clock.advance(50);
  t.same(
    r.runs.map((x) => x.texts),
    [texts(2), ['t2']],
  );
  r.runs[1]!.answer();
  t.same(ids(await done), [0, 1, 2]);
  t.equal(r.maxAtOnce(), 1);
});
