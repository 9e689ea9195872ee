// An index file that opens but has a damaged page where an actor's init reads (the watcher's documents) stopped
// `memvault start` with "watcher failed (SQLITE_CORRUPT)" until someone ran reindex. The start is made again once over
// a fresh index, the damaged file kept aside, and the daemon rebuilds it from the vault and the episode journal.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, startDaemon } from '../helpers/daemon.js';
import { damageTable, indexedThenStopped } from './helpers/indexed-then-stopped.js';

t.test('a start over a damaged documents page keeps the file aside and serves a rebuilt index', { timeout: 120_000 }, async (t) => {
  const { cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_documents');

  const d = await startDaemon(cfg, 'serve', { overDamage: true });
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md', 'every note is indexed again');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1', "the journal's episode is back");
  t.equal((await d.api('GET', '/v1/status')).body.index.sources.vault, 30);
  t.ok(
    readdirSync(cfg.data_dir).some((f) => /^index\.sqlite\.damaged-\d+$/.test(f)),
    'the damaged file is kept aside, not deleted',
  );
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});
