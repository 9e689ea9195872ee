// Starting with a different model never mixes vectors: the daemon says so and searches by keyword; `reindex`
// rebuilds into a new file while the old one keeps serving, then swaps it in.
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { int8DaemonOverFp32Index } from '../helpers/model-switch.js';

const files = {
  'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
  'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle for the twill pattern.\n',
  'Daily/2026-11-21.md': '# Saturday\n\nSpent the afternoon glazing mugs for the market.\n',
};

t.test('a model change is detected, keyword search keeps answering, and reindex switches models', async (t) => {
  const { v, int8, d } = await int8DaemonOverFp32Index(t, files);
  await d.search('warm up', { k: 1 }); // a hybrid search waits for the gateway's query model to load
  let ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.vector_search.available, false, 'vector search is off');
  t.match(ix.vector_search.reason, /^model_mismatch: .*0\.2\.0\/512.*0\.2\.0-int8.*memvault reindex/);
  const degraded = await d.search('firing pottery', { k: 3 });
  t.equal(degraded.mode, 'bm25', 'hybrid falls back to keywords');
  t.match(degraded.degraded, /model_mismatch/);
  t.equal(degraded.results[0]?.path, 'Projects/kiln.md');

  // a note indexed meanwhile gets no vector of the wrong model
  const done = d.daemon.nextDone('Inbox/new.md', 'indexed');
  v.write('Inbox/new.md', '# New\n\nA fresh note about spinning wool.\n');
  await done;
  ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.vectors, ix.chunks - 1, 'the new chunk was stored keyword-only');

  // reindex: searches keep answering from the old index while the new one builds
  const reindex = d.api('POST', '/v1/reindex', {});
  const during = await d.search('weaving heddle', { mode: 'bm25' });
  t.equal(during.results[0]?.path, 'Projects/loom.md', 'the old index serves during the rebuild');
  const r = await reindex;
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.equal(r.body.documents, 4);
  ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.model.version, '0.2.0-int8-r2', 'the index now records the configured model');
  t.equal(ix.vector_search.available, true);
  t.equal(ix.vectors, ix.chunks, 'every chunk has a vector of the new model');
  const after = await d.search('baking clay in an oven', { k: 2 });
  t.equal(after.mode, 'hybrid');
  t.equal(after.results[0]?.path, 'Projects/kiln.md');

  // the live pipeline writes to the swapped-in file
  const done2 = d.daemon.nextDone('Inbox/new.md', 'indexed');
  v.write('Inbox/new.md', '# New\n\nA fresh note about dyeing yarn with onion skins.\n');
  await done2;
  t.equal((await d.search('onion skins', { mode: 'bm25' })).results[0]?.path, 'Inbox/new.md');
  t.ok(allZero(await indexConsistency(int8.data_dir)));
});

t.test('a provider that cannot start leaves keyword search working and says why', async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'embedder:\n  provider: onnx\n  onnx:\n    model_dir: ./no-such-model\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  await d.search('warm up', { k: 1 }); // a hybrid search waits for the gateway's query model to settle
  const ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.documents, 3, 'notes are still indexed');
  t.equal(ix.vectors, 0, 'keyword-only');
  t.equal(ix.embedder.state, 'unavailable');
  t.match(ix.vector_search.reason, /model_missing/);
  const r = await d.search('weaving heddle');
  t.equal(r.mode, 'bm25');
  t.match(r.degraded, /embedder_unavailable: model_missing/);
  t.equal(r.results[0]?.path, 'Projects/loom.md');
  const v2 = await d.api('POST', '/v1/search', { query: 'weaving', mode: 'vector' });
  t.equal(v2.status, 200);
  t.equal(v2.body.mode, 'bm25', 'vector mode also answers by keyword, and says why');
  t.ok(v2.body.degraded);
});
