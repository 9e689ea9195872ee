// `embedder: { provider: onnx, onnx: { hub: <org>/<name> } }`: the first start downloads the export from the hub
// (a loopback server with the hub's layout) and indexes with it; the next start loads it from the cache without a
// single request — for each tokenizer kind (WordPiece, SentencePiece/Unigram, byte-level BPE).
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FakeHub } from '../helpers/fake-hub.js';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { makeExport, type TokenizerKind } from '../embedder/providers/helpers/make-export-fixture.js';

const files = {
  'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six after eleven hours of firing.\n',
  'Projects/loom.md': '# Loom\n\nThe weaving loom needs a new heddle for the twill pattern.\n',
};

for (const kind of ['wordpiece', 'unigram', 'bpe'] as TokenizerKind[]) {
  t.test(`${kind}: the first start downloads and embeds, the second loads from the cache with no request`, async (t) => {
    const hub = await FakeHub.start();
    t.teardown(() => hub.close());
    hub.publish(`acme/${kind}-embed`, makeExport(kind, { dim: 24 }));
    const v = makeVault(files);
    t.teardown(() => v.cleanup());
    const yaml = `embedder:\n  provider: onnx\n  threads: 2\n  onnx:\n    hub: acme/${kind}-embed\n    hub_url: ${hub.url}\n`;
    const cfg = testConfig(v.dir, yaml);

    const first = await startDaemon(cfg);
    await first.daemon.whenCaughtUp();
    await first.search('warm up', { k: 1 }); // waits for the gateway's query model
    const ix = (await first.api('GET', '/v1/status')).body.index;
    t.equal(ix.embedder.state, 'ready', JSON.stringify(ix.embedder));
    t.equal(ix.model.name, `acme/${kind}-embed`);
    t.equal(ix.model.dim, 24);
    t.ok(ix.chunks > 0);
    t.equal(ix.vectors, ix.chunks, 'every chunk has a vector of the downloaded model');
    const r = await first.search('weaving heddle', { mode: 'vector' });
    t.equal(r.mode, 'vector');
    t.equal(r.degraded, null);
    t.equal(hub.count('/cdn/', 'GET'), 1, 'the ONNX file was downloaded once for all threads and the chunker');
    const dir = path.join(cfg.data_dir, 'models', `acme--${kind}-embed@main`);
    t.ok(existsSync(path.join(dir, 'manifest.json')));
    await first.stop();

    const asked = hub.requests.length;
    const second = await startDaemon(cfg);
    t.teardown(() => second.stop());
    v.write('Inbox/new.md', '# New\n\nA fresh note about spinning wool.\n');
    await second.daemon.whenCaughtUp();
    const again = await second.search('spinning wool', { mode: 'vector' });
    t.equal(again.degraded, null, 'vector search works from the cached model');
    const ix2 = (await second.api('GET', '/v1/status')).body.index;
    t.equal(ix2.vectors, ix2.chunks);
    t.same(ix2.model, ix.model, 'the same model identity: no model_mismatch');
    t.equal(hub.requests.length, asked, 'the second start made no request to the hub');
  });
}
