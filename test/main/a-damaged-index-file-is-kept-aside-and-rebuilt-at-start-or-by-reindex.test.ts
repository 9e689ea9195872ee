// An index file SQLite cannot read (its tail lost, garbage written over it) used to stop every `memvault start` and
// `memvault reindex` with `database disk image is malformed` and a stack. The index is a projection of the vault and
// the episode journal: the start keeps the damaged file aside and rebuilds, and reindex replaces it.
import { readdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { indexOnce } from '../../main/daemon.js';
import { rebuildIndex } from '../../main/reindex.js';
import { makeLogger } from '../../supervisors/runtime/log.js';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { GLAZE_NOTES, indexedThenStopped } from './helpers/indexed-then-stopped.js';

t.test('a start over a truncated index keeps it aside, rebuilds, and loses no note or episode', { timeout: 120_000 }, async (t) => {
  const { cfg } = await indexedThenStopped(t);
  truncateSync(path.join(cfg.data_dir, 'index.sqlite'), 20_000); // a disk that lost the file's tail

  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const st = (await d.api('GET', '/v1/status')).body.index;
  t.equal(st.sources.vault, 30, 'every note is indexed again');
  t.equal(st.sources.task, 1, 'the journal’s episode is indexed again');
  t.equal((await d.search('g17q', { mode: 'bm25' })).results[0]?.path, 'Projects/p17.md');
  t.equal((await d.search('q7q', { mode: 'bm25' })).results[0]?.task_id, 'T-1');
  t.ok(
    readdirSync(cfg.data_dir).some((f) => /^index\.sqlite\.damaged-\d+$/.test(f)),
    'the damaged file is kept aside, not deleted',
  );
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});

t.test('reindex without a daemon replaces an index file that is not a database', { timeout: 120_000 }, async (t) => {
  const v = makeVault(GLAZE_NOTES);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  await d.stop();
  writeFileSync(path.join(cfg.data_dir, 'index.sqlite'), Buffer.alloc(64 * 1024, 0x5a)); // garbage over it

  const log = makeLogger('main', { level: 'silent' });
  const r = await rebuildIndex(cfg, log, (file) => indexOnce(cfg, log, file));
  t.equal(r.documents, 30);
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});
