// A note deleted and then written at another path with the same bytes, before the rename window ends, is one
// `store.rename` (chunks and vectors kept), not a delete and a new note.
import { renameSync, rmSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('a delete held for the rename window pairs with a new note of the same bytes', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const from = vp('Inbox/heron.md');
  const to = vp('Birds/heron.md');
  h.write(from, '# Heron\n\nThe heron waits by the weir.\n');
  const indexed = h.stateOf(from);
  await h.core.reconcile(new Map([[from, indexed]]));
  t.same(h.emitted, [{ type: 'main.watcher_state', pending: 0, reconciled: true }], 'the index matches the disk');

  // the OS reports the old path first; the new one only later (a move across folders, or a cut and paste)
  const bytes = readFileSync(path.join(h.root, from));
  rmSync(path.join(h.root, from));
  h.core.onPaths([from]);
  h.clock.advance(100);
  await h.settle();
  t.same(
    h.emitted.filter((m) => m.type !== 'main.watcher_state'),
    [],
    'the delete is held, not sent',
  );
  t.same(h.clock.pending(), [1_100], 'held until the rename window ends');

  h.clock.advance(400); // t = 500, inside the window
  h.write(to, bytes.toString('utf8'));
  h.core.onPaths([to]);
  h.clock.advance(100);
  await h.until('store.rename');
  await h.settle();
  const moved = h.stateOf(to);
  t.same(
    h.emitted.filter((m) => m.type !== 'main.watcher_state'),
    [{ type: 'store.rename', from, to, mtimeMs: moved.mtimeMs, size: moved.size }],
    'one rename; no delete, no chunker message',
  );

  h.clock.advance(1_000); // past the old deadline
  await h.settle();
  t.equal(h.of('store.delete').length, 0, 'the paired delete never fires');

  // the store writer reports both paths done; the new path is looked at once more and found unchanged
  h.core.handle({ type: 'watcher.done', path: from, outcome: 'renamed', state: null });
  h.core.handle({ type: 'watcher.done', path: to, outcome: 'renamed', state: moved });
  h.clock.advance(0);
  await h.settle();
  t.equal(h.of('chunker.file_changed').length, 0, 'the renamed note is not re-chunked');
  t.equal(h.core.pending(), 0);
  t.match(h.emitted.at(-1), { type: 'main.watcher_state', pending: 0 });
});

t.test('a rename inside one batch of events is paired too, whatever order the paths arrive in', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const from = vp('a.md');
  const to = vp('b.md');
  h.write(from, '# A\n\nSome text.\n');
  await h.core.reconcile(new Map([[from, h.stateOf(from)]]));
  renameSync(path.join(h.root, from), path.join(h.root, to));
  h.core.onPaths([to, from]); // the new path first: the flush still takes the disappearance first
  h.clock.advance(100);
  await h.until('store.rename');
  await h.settle();
  const moved = h.stateOf(to);
  t.same(
    h.emitted.filter((m) => m.type !== 'main.watcher_state'),
    [{ type: 'store.rename', from, to, mtimeMs: moved.mtimeMs, size: moved.size }],
  );
});
