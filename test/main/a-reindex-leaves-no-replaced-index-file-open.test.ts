// A reindex in a running daemon swaps the new index file in with a rename. The actors that read the index reopened
// the path only at their next read, and while any one of them (an idle scheduler, say) still held the replaced file,
// SQLite kept every descriptor of it open: the old index — hundreds of MB at 100k chunks — stayed on disk, deleted,
// until that actor happened to read again. Main now has each reader reopen before it answers the reindex.
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

/** The index files this process holds open that were deleted (replaced by a swap). */
function replacedIndexFilesOpen(dataDir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    if (target.startsWith(path.join(dataDir, 'index.sqlite')) && target.endsWith(' (deleted)')) out.push(target);
  }
  return out;
}

t.test('after a reindex no replaced index file stays open', async (t) => {
  const v = makeVault({ 'Projects/kiln.md': '# Kiln\n\nThe kiln reaches cone six.\n', 'Projects/loom.md': '# Loom\n\nA new heddle.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('kiln', { mode: 'bm25' })).results[0]?.path, 'Projects/kiln.md');
  const r = await d.api('POST', '/v1/reindex', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  // the memory actor reopens on the store's rescan, sent before the swap was answered: a call to it comes after
  const e = await d.api('POST', '/v1/episodes', { episodes: [{ type: 'task', task_id: 'T-1', title: 'Order shelves', status: 'open' }] });
  t.equal(e.status, 200, JSON.stringify(e.body));
  t.same(replacedIndexFilesOpen(cfg.data_dir), [], 'no replaced index file is held open');
  t.equal((await d.search('kiln', { mode: 'bm25' })).results[0]?.path, 'Projects/kiln.md', 'searches answer from the new file');
});
