// Before an agent changes a note, commitFirst commits the person's pending edit of that note at once, as theirs
// (names matched in NFC); the person's other pending edits keep waiting for their quiet period.
import t from 'tap';
import { peopleEdits } from '../helpers/people-edits-harness.js';

t.test("an agent about to touch a pending note gets the person's edit committed first, alone", async (t) => {
  const h = peopleEdits({ quietMs: 1_000 });
  const cafe = 'Inbox/café.md'.normalize('NFC');
  h.edits.changed([cafe, 'Inbox/other.md']);
  h.clock.advance(300);

  // the agent names the note in NFD (as macOS file names come), and also a note the person never touched
  await h.edits.commitFirst(['Inbox/café.md'.normalize('NFD'), 'Inbox/new.md']);
  t.same(h.commits, [{ at: 300, paths: [cafe] }], 'only the pending note the agent touches is committed, at once');

  await h.edits.commitFirst(['Inbox/new.md']);
  t.equal(h.commits.length, 1, 'a note with no pending edit commits nothing');

  h.clock.advance(700);
  const commits = await h.until(2);
  t.same(commits[1], { at: 1_000, paths: ['Inbox/other.md'] }, 'the other edit waits its quiet period and is not committed twice');
});

t.test('a refused commitFirst keeps the edit and retries it', async (t) => {
  const h = peopleEdits({ quietMs: 100, answer: (n) => n > 0 });
  h.edits.changed(['a.md']);
  await h.edits.commitFirst(['a.md']);
  t.same(h.commits, [{ at: 0, paths: ['a.md'] }]);
  t.same(h.clock.pending(), [1_000], 'git refused: the retry is armed');
  h.clock.advance(1_000);
  const commits = await h.until(2);
  t.same(commits[1], { at: 1_000, paths: ['a.md'] });
});
