// A note the store holds only a failure for (its last outcome was `failed`: never indexed) is sent as `store.delete`
// once it is gone, at once and once, so that its failure row goes too: an agent's write undone before the chunker read
// it failed as "vanished", and that row stayed on the status page for good. A failed note still on disk is read again
// as before; a failed note in a removed folder, and at boot a failure the index lists for a file no longer there, are
// deleted the same way.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { VaultPath } from '../../messages/common.js';
import { vp, watcherHarness, type WatcherHarness } from '../helpers/watcher-harness.js';

/** Writes the note, lets the debounce send it to the chunker (its `count`th message), and reports it failed. */
async function writeAndFail(h: WatcherHarness, note: VaultPath, text: string, count = 1): Promise<void> {
  h.write(note, text);
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.until('chunker.file_changed', count);
  await h.settle();
  h.core.handle({ type: 'watcher.done', path: note, outcome: 'failed', state: null });
}

const withoutState = <T extends { type: string }>(emitted: T[]) => emitted.filter((m) => m.type !== 'main.watcher_state');

t.test('a note written and removed before it was read: vanished, then deleted at once', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  await h.core.reconcile(new Map());
  const note = vp('Inbox/Egret.md');
  h.write(note, '# Egret\n\nWhite.\n');
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.until('chunker.file_changed');
  await h.settle();

  // the undo removes it; its OS event arrives while the chunker holds the note, which then finds no file
  rmSync(path.join(h.root, note));
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.settle();
  t.equal(h.of('store.delete').length, 0, 'nothing sent while the note is in flight');
  h.core.handle({ type: 'watcher.done', path: note, outcome: 'failed', state: null });
  h.clock.advance(0);
  await h.until('store.delete');
  await h.settle();
  t.same(
    withoutState(h.emitted).map((m) => m.type),
    ['chunker.file_changed', 'store.delete'],
    'a delete follows the failure at once, without the rename window',
  );
  t.same(h.of('store.delete'), [{ type: 'store.delete', path: note }]);

  h.core.handle({ type: 'watcher.done', path: note, outcome: 'deleted', state: null });
  h.core.onPaths([note]); // a late event for the same removal
  h.clock.advance(100);
  await h.settle();
  t.equal(h.of('store.delete').length, 1, 'sent once: after the delete the path is no failure any more');
  t.equal(h.core.pending(), 0);
});

t.test('a failed note still on disk is read again, and deleted once it is removed', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  await h.core.reconcile(new Map());
  const note = vp('Inbox/Broken.md');
  await writeAndFail(h, note, '# broken \u00ff');
  await writeAndFail(h, note, '# still broken \u00fe', 2);
  t.equal(h.of('store.delete').length, 0, 'changed, not gone: read again, nothing deleted');

  rmSync(path.join(h.root, note));
  h.core.onPaths([note]);
  h.clock.advance(100);
  await h.until('store.delete');
  await h.settle();
  t.same(h.of('store.delete'), [{ type: 'store.delete', path: note }], 'removed: its failure is deleted');
});

t.test('a failed note inside a folder that is removed is deleted with the folder', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  await h.core.reconcile(new Map());
  const note = vp('Drafts/old/Broken.md');
  await writeAndFail(h, note, '# broken \u00ff');

  // the OS may report only the folder: the watcher looks again at what it knew under it
  rmSync(path.join(h.root, 'Drafts'), { recursive: true });
  await h.core.onFolder('Drafts');
  h.clock.advance(100);
  await h.until('store.delete');
  await h.settle();
  t.same(h.of('store.delete'), [{ type: 'store.delete', path: note }]);
});

t.test('at boot, a failure the index lists for a file no longer there is deleted; one on disk is read', async (t) => {
  const h = watcherHarness(t, { debounceMs: 100, renameWindowMs: 1_000 });
  const kept = vp('Inbox/Broken.md');
  const gone = vp('Inbox/Gone.md');
  const indexed = vp('Notes/ok.md');
  h.write(kept, '# broken \u00ff');
  h.write(indexed, '# OK\n\nFine.\n');
  // the index's file statuses: two failures and an indexed note's warning
  await h.core.reconcile(new Map([[indexed, h.stateOf(indexed)]]), [kept, gone, indexed]);
  await h.settle();
  t.same(h.of('store.delete'), [{ type: 'store.delete', path: gone }], 'only the failure whose file is gone');
  t.same(
    h.of('chunker.file_changed').map((m) => m.path),
    [kept],
    'the failed note on disk is read again; the indexed one is unchanged',
  );
});
