// While a note is in flight (sent to the chunker, not yet stored), new changes to it send nothing; `watcher.done`
// releases it and the latest version is sent then, once, against the hash the store reported.
import t from 'tap';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('edits made while a note is in flight are sent once, after watcher.done, against the stored hash', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100 });
  await h.core.reconcile(new Map());
  const note = vp('Projects/kiln.md');

  h.write(note, '# Kiln\n\nFirst firing.\n');
  const first = h.stateOf(note);
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.until('chunker.file_changed');
  await h.settle();

  // two more saves while the first is being chunked and stored: each passes its debounce window
  h.write(note, '# Kiln\n\nFirst firing.\nSecond firing, hotter.\n');
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.settle();
  h.write(note, '# Kiln\n\nFirst firing.\nSecond firing, hotter.\nThird firing cracked a pot.\n');
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.settle();
  t.equal(h.of('chunker.file_changed').length, 1, 'no second message while the first is in flight');
  t.equal(h.core.pending(), 2, 'the note is in flight and owed one more look (not one per save)');
  t.same(h.clock.pending(), [], 'nothing is scheduled: the note waits for done, not for a timer');

  // the store writer finished the first version
  h.core.handle({ type: 'watcher.done', path: note, outcome: 'indexed', state: first });
  t.same(h.clock.pending(), [h.clock.now()], 'done schedules a flush at once');
  h.clock.advance(0);
  const sent = await h.until('chunker.file_changed', 2);
  await h.settle();
  const last = h.stateOf(note);
  t.same(
    sent,
    [
      { type: 'chunker.file_changed', path: note, mtimeMs: first.mtimeMs, size: first.size, indexedHash: null },
      { type: 'chunker.file_changed', path: note, mtimeMs: last.mtimeMs, size: last.size, indexedHash: first.contentHash },
    ],
    'the latest version follows, once, against what the index now holds',
  );

  h.core.handle({ type: 'watcher.done', path: note, outcome: 'indexed', state: last });
  t.equal(h.core.pending(), 0);
  t.match(h.emitted.at(-1), { type: 'main.watcher_state', pending: 0 }, 'main hears the vault is caught up');
  t.same(h.clock.pending(), [], 'and nothing more is scheduled');
});
