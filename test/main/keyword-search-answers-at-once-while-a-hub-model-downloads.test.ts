// A hub model downloading at first use never holds up the daemon's start or the gateway: keyword search answers
// from the index meanwhile, a hybrid search answers by keyword at once (not after the 10 s wait for a loading model)
// saying the model is downloading. Switching to it from another model is a model_mismatch until `reindex`.
import { existsSync, watch } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FakeHub } from '../helpers/fake-hub.js';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { makeExport } from '../embedder/providers/helpers/make-export-fixture.js';

/** Resolves when `file` no longer exists (watching its folder: the download's lock goes when it is done). */
function gone(file: string): Promise<void> {
  return new Promise((resolve) => {
    const w = watch(path.dirname(file), () => {
      if (!existsSync(file)) {
        w.close();
        resolve();
      }
    });
    if (!existsSync(file)) {
      w.close();
      resolve();
    }
  });
}

const files = {
  'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
  'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle for the twill pattern.\n',
};

t.test('keyword search answers at once while a hub model downloads; then the switch is a model_mismatch until reindex', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/slow-embed', makeExport('unigram'));
  const release = hub.hold('onnx/model.onnx');
  t.teardown(release);
  const v = makeVault(files);
  t.teardown(() => v.cleanup());

  // an index built with the default model
  const before = await startDaemon(testConfig(v.dir));
  await before.daemon.whenCaughtUp();
  await before.stop();

  const cfg = testConfig(v.dir, `embedder:\n  provider: onnx\n  onnx:\n    hub: acme/slow-embed\n    hub_url: ${hub.url}\n`);
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await hub.requested('/cdn/', 'GET'); // the ONNX file is on its way, and stays so until released
  const kw = await d.search('weaving heddle', { mode: 'bm25' });
  t.equal(kw.results[0]?.path, 'Projects/loom.md', 'keyword search answers from the index');
  const hybrid = await d.search('weaving heddle');
  t.equal(hybrid.mode, 'bm25');
  t.match(hybrid.degraded, /^embedder_starting: downloading acme\/slow-embed/);
  t.ok(hybrid.took_ms < 10_000, `answered without waiting for the model (${hybrid.took_ms} ms)`);
  const ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.embedder.state, 'starting');
  t.match(ix.embedder.reason, /^downloading acme\/slow-embed/);

  release();
  await gone(path.join(cfg.data_dir, 'models', 'acme--slow-embed@main.lock'));
  await d.search('warm up', { k: 1 }); // now waits for the query model, which loads from the finished download
  const after = (await d.api('GET', '/v1/status')).body.index;
  t.equal(after.embedder.model?.name, 'acme/slow-embed');
  t.match(
    after.vector_search.reason,
    /^model_mismatch: .*universal-sentence-encoder-lite.*acme\/slow-embed.*memvault reindex/,
    'never mixed vectors',
  );
  const r = await d.api('POST', '/v1/reindex', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  const done = (await d.api('GET', '/v1/status')).body.index;
  t.equal(done.model.name, 'acme/slow-embed');
  t.equal(done.vectors, done.chunks);
  t.equal((await d.search('weaving heddle', { mode: 'vector' })).degraded, null);
});
