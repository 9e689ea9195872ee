// When git refuses a person's commit (a full disk), the paths are kept and retried after 1 s, doubling to at most
// 60 s; a commit that goes through resets the backoff.
import t from 'tap';
import { peopleEdits } from '../helpers/people-edits-harness.js';

t.test('retries come 1, 2, 4 … 60, 60 s apart with the same paths, until git takes them', async (t) => {
  const refusals = 8;
  const h = peopleEdits({ quietMs: 100, answer: (n) => n >= refusals });
  h.edits.changed(['Inbox/a.md', 'Inbox/b.md']);
  const gaps: number[] = [];
  for (let n = 0; n < refusals; n++) {
    const armed = h.clock.nextScheduled();
    h.clock.advance(h.clock.pending()[0]! - h.clock.now());
    await armed; // the refused commit armed its retry
    await h.idle();
    const [due, ...rest] = h.clock.pending();
    t.same(rest, [], 'one timer');
    gaps.push(due! - h.clock.now());
  }
  t.same(gaps, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000], 'the backoff doubles from 1 s and stops at 60 s');
  h.clock.advance(60_000);
  const commits = await h.until(refusals + 1);
  t.same(
    commits.map((c) => c.at),
    [100, 1_100, 3_100, 7_100, 15_100, 31_100, 63_100, 123_100, 183_100],
    'attempts by the clock',
  );
  t.ok(
    commits.every((c) => c.paths.join() === 'Inbox/a.md,Inbox/b.md'),
    'every attempt carries the kept paths',
  );
  t.same(h.clock.pending(), [], 'accepted: no retry left');
});

t.test('after a commit goes through, the next refusal waits 1 s again', async (t) => {
  const h = peopleEdits({ quietMs: 100, answer: (n) => n === 2 }); // refused, refused, taken, refused
  const step = async (): Promise<void> => {
    h.clock.advance(h.clock.pending()[0]! - h.clock.now());
    await h.until(h.commits.length + 1);
    await h.idle();
  };
  h.edits.changed(['x.md']);
  await step(); // t = 100, refused: retry in 1 s
  await step(); // t = 1100, refused: retry in 2 s
  t.same(h.clock.pending(), [3_100]);
  await step(); // t = 3100, taken
  t.same(h.clock.pending(), []);
  h.edits.changed(['y.md']);
  await step(); // t = 3200, refused
  t.same(h.clock.pending(), [4_200], 'the backoff starts again from 1 s, not 4 s');
  t.same(
    h.commits.map((c) => [c.at, c.paths]),
    [
      [100, ['x.md']],
      [1_100, ['x.md']],
      [3_100, ['x.md']],
      [3_200, ['y.md']],
    ],
  );
});

t.test('the first retry waits the quiet period when that is longer than a second', async (t) => {
  const h = peopleEdits({ quietMs: 5_000, answer: (n) => n > 0 });
  h.edits.changed(['a.md']);
  const armed = h.clock.nextScheduled();
  h.clock.advance(5_000);
  await armed;
  await h.idle();
  t.same(h.clock.pending(), [10_000]);
  h.clock.advance(5_000);
  const commits = await h.until(2);
  t.same(
    commits.map((c) => [c.at, c.paths]),
    [
      [5_000, ['a.md']],
      [10_000, ['a.md']],
    ],
  );
});
