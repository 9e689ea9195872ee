// Fewer than `maxBatch` texts wait `windowMs` for company while a thread is free, then go as one batch; texts that
// arrive during the window join it without restarting it.
import t from 'tap';
import { Batcher } from '../../actors/embedder/batcher.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { batchRuns, ids, texts } from '../helpers/batch-runs.js';

t.test('a partial batch goes when its window ends, not before', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 8, windowMs: 50, concurrency: 2, run: r.run, clock });

  const done = batcher.embed(texts(3));
  t.equal(r.runs.length, 0);
  t.equal(batcher.queued, 3);
  clock.advance(49);
  t.equal(r.runs.length, 0, 'still waiting at 49 ms');
  clock.advance(1);
  t.same(
    r.runs.map((x) => x.texts),
    [texts(3)],
    'one batch of three at 50 ms',
  );
  t.equal(batcher.queued, 0);
  r.runs[0]!.answer();
  t.same(ids(await done), [0, 1, 2]);
});

t.test('texts from other callers inside the window share the batch, and a later one does not restart the window', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 8, windowMs: 50, concurrency: 2, run: r.run, clock });

  const a = batcher.embed(texts(2));
  clock.advance(30);
  const b = batcher.embed(texts(2, 2));
  t.same(clock.pending(), [50], 'the window still ends 50 ms after the first text');
  clock.advance(20);
  t.same(
    r.runs.map((x) => x.texts),
    [texts(4)],
    'both callers in one batch at 50 ms',
  );
  r.runs[0]!.answer();
  t.same(ids(await a), [0, 1]);
  t.same(ids(await b), [2, 3]);
});

t.test('the texts left over after full batches wait their own window', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 4, windowMs: 50, concurrency: 2, run: r.run, clock });

  const done = batcher.embed(texts(5));
  t.same(
    r.runs.map((x) => x.texts),
    [texts(4)],
    'the full batch goes at once',
  );
  t.same(clock.pending(), [50], 'the fifth text waits for company');
  clock.advance(50);
  t.same(
    r.runs.map((x) => x.texts),
    [texts(4), ['t4']],
  );
  r.runs[0]!.answer();
  r.runs[1]!.answer();
  t.same(ids(await done), [0, 1, 2, 3, 4]);
});
