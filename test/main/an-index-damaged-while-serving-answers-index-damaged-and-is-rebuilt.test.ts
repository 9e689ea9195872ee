// An index file whose pages are damaged on disk while it still opens (so the start's check lets it through) made every
// search, tool call and `memvault status` answer `internal: database disk image is malformed` until someone ran
// reindex. The gateway now answers `index_damaged` (503, a tool error of that reason) and has main rebuild the index
// from the vault and the episode journal; once swapped in, searches answer again and nothing is lost.
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const files: Record<string, string> = {};
for (let i = 0; i < 30; i++) files[`Projects/p${i}.md`] = `# P${i}\n\nThe glaze batch g${i}q fires at cone six.\n`;

/** Garbage over the pages of `table`'s b-tree root: the file still opens, reading that table fails. */
function damageTable(file: string, table: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)'); // every page in the file itself, none newer in the WAL
  const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(table) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa7), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}

t.test('a damaged index answers index_damaged, is rebuilt by itself, and loses no note or episode', { timeout: 180_000 }, async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const e = await d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'task', task_id: 'T-1', title: 'Order the kiln shelf q7q', status: 'open' }],
  });
  t.equal(e.status, 200, JSON.stringify(e.body));
  await d.daemon.whenCaughtUp();
  await d.stop();
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_fts_data'); // keyword search's postings

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  const rebuilt = d.daemon.nextReindex();
  const r = await d.api('POST', '/v1/search', { query: 'g17q', mode: 'bm25' });
  t.equal(r.status, 503, JSON.stringify(r.body));
  t.equal(r.body.error?.reason, 'index_damaged');
  t.match(r.body.error?.message, /rebuilding it from the vault and the episode journal/);
  const tool = await d.tool('memory_search', { query: 'g17q', mode: 'bm25' });
  t.equal(tool.status, 503, 'a tool call says the same');
  t.equal(tool.body.error?.reason, 'index_damaged');

  const done = await rebuilt;
  t.ok(done.ok, `the daemon rebuilt the index by itself: ${JSON.stringify(done)}`);
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'searches answer again');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', "the journal's episode is back");
  const st = (await d.api('GET', '/v1/status')).body.index;
  t.equal(st.sources.vault, 30, 'every note is indexed');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});
