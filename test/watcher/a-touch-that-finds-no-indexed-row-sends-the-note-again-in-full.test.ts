// The chunker skips a note whose bytes hash as the watcher last heard it was indexed, and asks the store writer only
// to record new stats. If the index holds no live row for it by then, that touch must not count as done: the store
// answers `stale` and the watcher sends the note again in full, so it is never silently left out of the index.
import t from 'tap';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { StoreApplier } from '../../actors/store-writer/apply.js';
import { tempIndex } from '../helpers/index-fixture.js';
import { vp, watcherHarness } from '../helpers/watcher-harness.js';

t.test('a touch for a path the index does not hold is answered stale, and the watcher sends the note again', async (t) => {
  const ix = tempIndex(t, { dim: null });
  const store = new StoreApplier(ix.writer, new IndexReader(ix.db, { userId: 'default' }));
  const h = watcherHarness(t, { debounceMs: 50 });
  const note = vp('Inbox/tide.md');
  h.write(note, '# Tide\n\nHigh water at six.\n');
  const st = h.stateOf(note);
  // the watcher believes the note is indexed with these bytes (an earlier done), but the index has no row for it
  await h.core.reconcile(new Map([[note, { ...st, mtimeMs: st.mtimeMs - 1000 }]]));
  const sent = await h.until('chunker.file_changed');
  t.equal(sent[0]?.indexedHash, st.contentHash, 'the chunker is told the hash the watcher believes is indexed');

  const out = store.apply({ type: 'store.touch', path: note, mtimeMs: st.mtimeMs, size: st.size, contentHash: st.contentHash });
  t.same(out.done, [{ type: 'watcher.done', path: note, outcome: 'stale', state: null }], 'no live row: stale, not unchanged');
  t.equal(new IndexReader(ix.db, { userId: 'default' }).counts().documents, 0, 'and nothing was written');

  h.core.handle(out.done[0]!);
  h.clock.advance(0);
  const again = await h.until('chunker.file_changed', 2);
  t.same(
    again[1],
    { type: 'chunker.file_changed', path: note, mtimeMs: st.mtimeMs, size: st.size, indexedHash: null },
    'sent again in full: no hash to skip against',
  );
  t.equal(h.core.pending(), 1, 'and it stays pending until that is stored');
});
