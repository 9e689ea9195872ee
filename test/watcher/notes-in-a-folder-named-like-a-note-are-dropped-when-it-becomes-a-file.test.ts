// A folder named like a note (`flip.md/`) that held indexed notes and is replaced by a file: the OS may report only
// the new file, so the watcher remembers such folders and looks at the notes they held again (the hostile campaign
// once left `flip.md/inner.md` indexed after the swap).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('after the folder becomes a file, its old note is deleted and the file is indexed', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const folder = vp('Drops/flip.md');
  const inner = vp('Drops/flip.md/inner.md');
  h.write(inner, '# Inner\n\na note inside the folder\n');
  await h.core.reconcile(new Map([[inner, h.stateOf(inner)]]));
  t.equal(h.core.heldNotes(folder), true, 'the index shows a folder named like a note');
  t.equal(h.core.heldNotes(vp('Drops')), false, 'an ordinary folder is not remembered');

  rmSync(path.join(h.root, folder), { recursive: true });
  writeFileSync(path.join(h.root, folder), '# Flip\n\nfile again\n');
  // only the file's own event arrives: what the actor does for a path the core says held notes
  await h.core.onFolder(folder);
  h.core.onPaths([folder]);
  h.clock.advance(100);
  await h.settle();
  t.match(h.of('chunker.file_changed'), [{ path: folder }], 'the file is read');
  h.clock.advance(1_000); // the held delete's rename window
  await h.until('store.delete');
  t.same(h.of('store.delete'), [{ type: 'store.delete', path: inner }], 'the note the folder held leaves the index');
});

t.test('a folder named like a note that is still a folder keeps its notes', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const inner = vp('Drops/keep.md/inner.md');
  h.write(inner, '# Inner\n');
  await h.core.reconcile(new Map([[inner, h.stateOf(inner)]]));
  mkdirSync(path.join(h.root, 'Drops/keep.md'), { recursive: true });
  await h.core.onFolder(vp('Drops/keep.md'));
  h.clock.advance(2_000);
  await h.settle();
  t.same(h.of('store.delete'), [], 'nothing deleted');
  t.same(h.of('chunker.file_changed'), [], 'and nothing re-read: the note is unchanged on disk');
});
