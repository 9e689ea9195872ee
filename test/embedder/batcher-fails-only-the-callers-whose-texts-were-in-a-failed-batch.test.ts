// When a model call fails, only the callers with a text in that batch get the error; other callers' batches, and
// later calls, are unaffected. A call that answers too few vectors fails the texts left without one.
import t from 'tap';
import { Batcher } from '../../actors/embedder/batcher.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { batchRuns, ids, vectorFor } from '../helpers/batch-runs.js';

t.test('a failed batch rejects its callers and spares batches running or queued beside it', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 2, windowMs: 50, concurrency: 2, run: r.run, clock });

  const a = batcher.embed(['a0', 'a1']); // batch 1
  const b = batcher.embed(['b2', 'b3', 'b4']); // batch 2: b2 b3; b4 waits for a thread
  const c = batcher.embed(['c5']); // waits beside b4
  const d = batcher.embed(['d6']); // waits behind them
  t.same(
    r.runs.map((x) => x.texts),
    [
      ['a0', 'a1'],
      ['b2', 'b3'],
    ],
  );
  t.equal(batcher.queued, 3);

  const crash = new Error('the model thread crashed');
  r.runs[1]!.fail(crash);
  await t.rejects(b, crash, 'the caller with texts in the failed batch fails');
  await r.until(3);
  t.same(r.runs[2]!.texts, ['b4', 'c5'], 'the freed thread takes the queued texts, which were not failed with it');
  r.runs[0]!.answer();
  r.runs[2]!.answer();
  t.same(ids(await a), [0, 1], 'the batch running beside the failed one is answered');
  t.same(ids(await c), [5], 'a caller that shared a later batch with the failed caller is answered');
  clock.advance(50);
  t.same(r.runs[3]!.texts, ['d6']);
  r.runs[3]!.answer();
  t.same(ids(await d), [6], 'the batcher keeps serving after a failure');
  t.equal(batcher.running, 0);
});

t.test('a batch answered with too few vectors fails only the texts left without one', async (t) => {
  const clock = new ManualClock();
  const r = batchRuns();
  const batcher = new Batcher({ maxBatch: 2, windowMs: 50, concurrency: 1, run: r.run, clock });

  const first = batcher.embed(['x0']);
  const second = batcher.embed(['y1']);
  t.same(
    r.runs.map((x) => x.texts),
    [['x0', 'y1']],
  );
  r.runs[0]!.answerWith([vectorFor('x0')]);
  t.same(ids(await first), [0]);
  await t.rejects(second, { message: 'embedder returned 1 vectors for 2 texts' });
});

t.test('a model call that throws before it returns a promise fails its batch and frees its thread', async (t) => {
  const clock = new ManualClock();
  let calls = 0;
  const batcher = new Batcher({
    maxBatch: 2,
    windowMs: 50,
    concurrency: 1,
    clock,
    run: (texts) => {
      if (calls++ === 0) throw new Error('the pool is gone');
      return Promise.resolve(texts.map(vectorFor));
    },
  });
  await t.rejects(batcher.embed(['x1', 'x2']), /the pool is gone/, 'the callers of that batch get the error');
  t.equal(batcher.running, 0, 'the thread is free again');
  t.same(
    (await batcher.embed(['y3', 'y4'])).map((v) => v[0]),
    [3, 4],
    'and the next batch runs',
  );
});
