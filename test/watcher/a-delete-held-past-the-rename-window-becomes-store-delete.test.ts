// A deleted note nothing pairs with is held for the rename window and then sent as `store.delete`, once; its
// `watcher.done` leaves nothing pending.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('a delete is sent when the rename window ends, not before', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const note = vp('Inbox/gone.md');
  const other = vp('Inbox/other.md');
  h.write(note, '# Gone\n\nSoon deleted.\n');
  h.write(other, '# Other\n\nDifferent bytes.\n');
  await h.core.reconcile(
    new Map([
      [note, h.stateOf(note)],
      [other, h.stateOf(other)],
    ]),
  );

  rmSync(path.join(h.root, note));
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.settle();
  t.equal(h.core.pending(), 1, 'the delete is held');
  t.same(h.clock.pending(), [1_100]);

  h.clock.advance(999); // t = 1099
  t.same(
    h.emitted.filter((m) => m.type !== 'main.watcher_state'),
    [],
    'nothing sent inside the window',
  );

  h.clock.advance(1); // t = 1100
  await h.until('store.delete');
  await h.settle();
  t.same(
    h.emitted.filter((m) => m.type !== 'main.watcher_state'),
    [{ type: 'store.delete', path: note }],
    'one delete, for the deleted note only',
  );

  h.core.handle({ type: 'watcher.done', path: note, outcome: 'deleted', state: null });
  h.clock.advance(0);
  await h.settle();
  t.equal(h.core.pending(), 0);
  t.equal(h.of('store.delete').length, 1, 'sent once');
  t.match(h.emitted.at(-1), { type: 'main.watcher_state', pending: 0 }, 'main hears the vault is caught up');
  t.equal(h.board.get('filesDone'), 1);
});
