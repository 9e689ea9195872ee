// A person's edits are committed one quiet period after their last change; each change restarts the wait, but a
// steady stream of changes does not postpone the commit past the tenth quiet period.
import t from 'tap';
import { peopleEdits } from '../helpers/people-edits-harness.js';

t.test('edits are committed together one quiet period after the last change', async (t) => {
  const h = peopleEdits({ quietMs: 1_000 });
  h.edits.changed(['a.md']);
  h.clock.advance(600);
  h.edits.changed(['b.md', 'a.md']);
  t.same(h.clock.pending(), [1_600], 'the second change restarts the quiet period');
  h.clock.advance(999);
  t.same(h.chain, [], 'nothing committed before the quiet period ends');
  h.clock.advance(1);
  const [c, ...more] = await h.until(1);
  t.same(c, { at: 1_600, paths: ['a.md', 'b.md'] }, 'one commit of both paths, each once');
  t.same(more, []);
  t.same(h.clock.pending(), [], 'nothing left to do');
});

t.test('a change every half period is committed by the eleventh period after the first change', async (t) => {
  const h = peopleEdits({ quietMs: 1_000 });
  const changed: string[] = [];
  for (let at = 0; at <= 10_000; at += 500) {
    h.clock.advance(at - h.clock.now());
    const p = `stream-${at}.md`;
    h.edits.changed([p]);
    changed.push(p);
    const [due] = h.clock.pending();
    if (at < 10_000) t.equal(due, at + 1_000, `a change at ${at} ms restarts the wait`);
    else t.equal(due, 10_500, `a change at ${at} ms, ten periods after the first, does not`);
  }
  t.same(h.chain, [], 'nothing committed while the changes keep coming');
  h.clock.advance(500);
  const [c] = await h.until(1);
  t.equal(c!.at, 10_500, 'committed 10.5 periods after the first change, though changes never stopped');
  t.same(c!.paths, changed, 'with every path changed until then');
  t.equal(h.commits.length, 1);

  // the next change starts a fresh wait, with the ten-period cap counted from it
  h.edits.changed(['after.md']);
  t.same(h.clock.pending(), [h.clock.now() + 1_000]);
});
