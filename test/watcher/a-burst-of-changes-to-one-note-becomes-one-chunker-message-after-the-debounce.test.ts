// Several OS events for one note inside the debounce window become one `chunker.file_changed`, sent when the window
// (counted from the first event) ends, with the note's stats as they are then.
import t from 'tap';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('four saves of one note within the debounce window are sent to the chunker once, with the last size', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100 });
  await h.core.reconcile(new Map());
  t.same(h.emitted, [{ type: 'main.watcher_state', pending: 0, reconciled: true }], 'an empty vault reconciles to nothing pending');

  let text = '# Heron\n';
  for (const at of [0, 30, 60, 90]) {
    h.clock.advance(at - h.clock.now());
    text += `The heron waits by the weir (${at}).\n`;
    h.write('Inbox/heron.md', text);
    h.core.onPaths([vp('Inbox/heron.md')]);
  }
  h.clock.advance(9); // t = 99: the window, counted from the first event, has not ended
  t.same(h.of('chunker.file_changed'), [], 'nothing goes to the chunker inside the window');
  t.same(h.clock.pending(), [100], 'one flush is due, at the end of the window opened by the first event');
  t.equal(h.core.pending(), 1, 'the note is pending once, not once per event');

  h.clock.advance(1);
  const [msg] = await h.until('chunker.file_changed');
  await h.settle();
  const disk = h.stateOf('Inbox/heron.md');
  t.same(
    h.of('chunker.file_changed'),
    [{ type: 'chunker.file_changed', path: 'Inbox/heron.md', mtimeMs: disk.mtimeMs, size: disk.size, indexedHash: null }],
    'one message, carrying the stats of the last save',
  );
  t.equal(msg!.size, Buffer.byteLength(text));
  t.same(
    h.emitted.map((m) => m.type),
    ['main.watcher_state', 'main.watcher_state', 'chunker.file_changed'],
    'main hears that work is pending, then the chunker gets the note',
  );
  t.match(h.emitted[1], { type: 'main.watcher_state', pending: 1 });
  t.equal(h.board.get('inFlight'), 1, 'the board shows the note in flight');
});
