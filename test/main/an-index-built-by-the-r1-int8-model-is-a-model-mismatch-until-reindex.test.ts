// The int8 fix changed the model's identity (0.2.0-int8 → 0.2.0-int8-r2): an index the r1 model built is reported
// model_mismatch, never topped up with vectors of the new model, and `reindex` rebuilds it with the new one.
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const files = {
  'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
  'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle for the twill pattern.\n',
};

t.test('an r1 int8 index is a model mismatch until reindex rebuilds it with the r2 model', async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'embedder:\n  quantize: int8\n');
  const first = await startDaemon(cfg);
  await first.daemon.whenCaughtUp();
  t.match((await first.api('GET', '/v1/status')).body.index.model, { version: '0.2.0-int8-r2' });
  await first.stop();

  // What the r1 build recorded: the same model entry with the old version.
  const db = new Database(path.join(cfg.data_dir, 'index.sqlite'));
  const stored = JSON.parse(db.prepare(`SELECT value FROM meta WHERE key = 'model'`).pluck().get() as string) as { version: string };
  db.prepare(`UPDATE meta SET value = ? WHERE key = 'model'`).run(JSON.stringify({ ...stored, version: '0.2.0-int8' }));
  db.close();

  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  await d.search('warm up', { k: 1 }); // a hybrid search waits for the gateway's query model to load
  let ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.vector_search.available, false, 'the r1 vectors are not searched with r2 queries');
  t.match(ix.vector_search.reason, /^model_mismatch: .*@0\.2\.0-int8\/512 but .*@0\.2\.0-int8-r2\/512 .*memvault reindex/);
  const done = d.daemon.nextDone('Inbox/new.md', 'indexed');
  v.write('Inbox/new.md', '# New\n\nA fresh note about spinning wool.\n');
  await done;
  ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.vectors, ix.chunks - 1, 'a note indexed meanwhile gets no vector of the other revision');

  const r = await d.api('POST', '/v1/reindex', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.model.version, '0.2.0-int8-r2', 'the rebuilt index records the r2 model');
  t.equal(ix.vector_search.available, true);
  t.equal(ix.vectors, ix.chunks, 'every chunk has an r2 vector');
  const after = await d.search('baking clay in an oven', { k: 2 });
  t.equal(after.mode, 'hybrid');
  t.equal(after.results[0]?.path, 'Projects/kiln.md');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});
