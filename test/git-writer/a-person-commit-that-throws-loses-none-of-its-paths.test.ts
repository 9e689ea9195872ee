// A person-commit that throws (a bug: a backslash in one name once did) must not take its slice's paths with it:
// they go back to pending, and the next edit's commit carries them. Before, the slice was dropped without a word.
import t from 'tap';
import { peopleEdits } from '../helpers/people-edits-harness.js';

t.test('the paths of a commit that threw are committed with the next edit', async (t) => {
  const h = peopleEdits({
    quietMs: 100,
    answer: (n) => {
      if (n === 0) throw new TypeError('a bug in the commit');
      return true;
    },
  });
  h.edits.changed(['Daily/gone.md', 'Inbox/a.md']);
  h.clock.advance(100);
  await h.until(1);
  await h.idle();
  t.same(h.clock.pending(), [], 'a throw is no refusal: no retry is armed for it');
  h.edits.changed(['Inbox/b.md']);
  h.clock.advance(100);
  const commits = await h.until(2);
  t.same(
    commits.map((c) => [c.at, c.paths]),
    [
      [100, ['Daily/gone.md', 'Inbox/a.md']],
      [200, ['Daily/gone.md', 'Inbox/a.md', 'Inbox/b.md']],
    ],
  );
});
