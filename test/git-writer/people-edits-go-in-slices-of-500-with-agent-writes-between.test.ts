// More than 500 pending paths are committed in slices of 500, one slice per turn of the serial chain, so an agent's
// write queued meanwhile runs between slices instead of after the whole drop.
import t from 'tap';
import { peopleEdits } from '../helpers/people-edits-harness.js';

t.test('1,234 changed notes are three commits of 500, 500 and 234, each path once', async (t) => {
  let agent: Promise<void> | null = null;
  const h = peopleEdits({
    quietMs: 1_000,
    onCommit: () => {
      if (h.commits.length === 1) agent = h.queue('agent write'); // an agent's write arrives during the first slice
    },
  });
  const all = Array.from({ length: 1_234 }, (_, i) => `drop/note-${String(i).padStart(4, '0')}.md`);
  h.edits.changed(all);
  h.clock.advance(1_000);
  const commits = await h.until(3);
  await agent;
  t.same(
    commits.map((c) => c.paths.length),
    [500, 500, 234],
    'slices of at most 500',
  );
  t.same(
    commits.flatMap((c) => c.paths),
    all,
    'every path committed once, in the order they changed',
  );
  t.same(h.chain, ['people', 'agent write', 'people', 'people'], 'the agent write goes between the first and second slice');
  t.ok(
    commits.every((c) => c.at === 1_000),
    'the slices follow each other without waiting for the clock',
  );
  t.same(h.clock.pending(), []);
});

t.test('a path changed while the slices run is taken by the running chain, and its own timer then finds nothing', async (t) => {
  const h = peopleEdits({
    quietMs: 1_000,
    onCommit: () => {
      if (h.commits.length === 1) h.edits.changed(['late.md']); // a person saves again during the first slice
    },
  });
  const all = Array.from({ length: 600 }, (_, i) => `n${i}.md`);
  h.edits.changed(all);
  h.clock.advance(1_000);
  const commits = await h.until(2);
  t.same(
    commits.map((c) => c.paths.length),
    [500, 101],
    'the second slice takes the rest and the late path',
  );
  t.equal(commits[1]!.paths.at(-1), 'late.md');
  await h.idle();
  t.same(h.clock.pending(), [2_000], "the late path's quiet period is still armed");
  h.clock.advance(1_000);
  await h.queue('probe'); // runs after the turn that timer queued
  t.same(h.chain, ['people', 'people', 'people', 'probe']);
  t.equal(h.commits.length, 2, 'nothing is committed twice, and no empty commit is made');
});
