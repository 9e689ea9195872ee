// Offline with no cached copy, the daemon still starts and indexes by keyword, and status says
// `model_unavailable` with what to do; a download refused for its sha256 does the same with `checksum_mismatch`.
import t from 'tap';
import { deadUrl, FakeHub } from '../helpers/fake-hub.js';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { makeExport } from '../embedder/providers/helpers/make-export-fixture.js';

const files = {
  'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
  'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle for the twill pattern.\n',
};

t.test('offline with no cached model: keyword-only, reason model_unavailable', async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const url = await deadUrl();
  const cfg = testConfig(v.dir, `embedder:\n  provider: onnx\n  onnx:\n    hub: acme/far-away\n    hub_url: ${url}\n`);
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const r = await d.search('weaving heddle');
  t.equal(r.mode, 'bm25');
  t.equal(r.results[0]?.path, 'Projects/loom.md', 'keyword search answers');
  const ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.documents, 2, 'notes are indexed');
  t.equal(ix.vectors, 0);
  t.equal(ix.embedder.state, 'unavailable');
  t.match(ix.embedder.reason, /^model_unavailable: acme\/far-away is not cached and .* cannot be reached/);
  t.match(ix.embedder.reason, /memvault models pull acme\/far-away/);
  t.match(ix.embedder.reason, /hub_url to a mirror/);
  t.match(r.degraded, /embedder_unavailable: model_unavailable/);
});

t.test('a download whose sha256 differs from the pinned one: keyword-only, reason checksum_mismatch', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/pinned', makeExport('wordpiece'));
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(
    v.dir,
    `embedder:\n  provider: onnx\n  onnx:\n    hub: acme/pinned\n    hub_url: ${hub.url}\n    sha256: "${'0'.repeat(64)}"\n`,
  );
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  await d.search('warm up', { k: 1 });
  const ix = (await d.api('GET', '/v1/status')).body.index;
  t.equal(ix.embedder.state, 'unavailable');
  t.match(ix.embedder.reason, /^checksum_mismatch: acme\/pinned: onnx\/model\.onnx was refused \(sha256 [0-9a-f]{64}, pinned 0{64}\)/);
  t.equal(ix.vectors, 0);
  t.equal((await d.search('pottery kiln')).results[0]?.path, 'Projects/kiln.md');
});
