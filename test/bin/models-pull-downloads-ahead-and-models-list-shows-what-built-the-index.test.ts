// `memvault models pull` downloads a hub model ahead of time (a line per step without a TTY), `models list` shows the
// cached models with their size and which one built the index, and `doctor` says whether a model not yet downloaded
// can be fetched.
import path from 'node:path';
import t from 'tap';
import { deadUrl, FakeHub } from '../helpers/fake-hub.js';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';
import { makeExport } from '../embedder/providers/helpers/make-export-fixture.js';
import { writeFileSync } from 'node:fs';

t.test('models pull, then index with it offline, then models list', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/pull-me', makeExport('bpe'));
  const v = makeVault({ 'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six.\n' });
  t.teardown(() => v.cleanup());
  const config = path.join(path.dirname(v.dir), 'memvault.yaml');
  const write = (hubUrl: string) =>
    writeFileSync(config, `vault: ${v.dir}\nembedder:\n  provider: onnx\n  onnx:\n    hub: acme/pull-me\n    hub_url: ${hubUrl}\n`);
  write(hub.url);

  const dr = await cli(['doctor', '--config', config, '--json']);
  const model = JSON.parse(dr.stdout).checks.find((c: { name: string }) => c.name === 'model');
  t.equal(model.ok, true);
  t.match(model.detail, /not downloaded yet; .* answers, so the daemon fetches it at first use/);
  t.equal(hub.count('/cdn/'), 0, 'doctor downloads nothing');

  const pulled = await cli(['models', 'pull', '--config', config]);
  t.equal(pulled.code, 0, pulled.stderr);
  t.match(pulled.stderr, /memvault: acme\/pull-me: downloading onnx\/model\.onnx \(/, 'a line per file without a TTY');
  t.match(pulled.stderr, /acme\/pull-me@main \(commit [0-9a-f]{10}\) is downloaded in .*acme--pull-me@main/);

  // the hub goes away: the pulled copy is all the daemon needs
  write(await deadUrl());
  const idx = await cli(['index', '--config', config]);
  t.equal(idx.code, 0, idx.stderr);
  const again = await cli(['models', 'pull', '--config', config]);
  t.equal(again.code, 0, 'pulling a cached model asks nothing');
  t.match(again.stderr, /is already cached/);

  const ls = await cli(['models', 'list', '--config', config, '--json']);
  t.equal(ls.code, 0, ls.stderr);
  const out = JSON.parse(ls.stdout);
  const row = out.models.find((m: { model: string }) => m.model === 'acme/pull-me@main');
  t.match(row, { kind: 'hub', state: 'ready', index: true, configured: true });
  t.ok(row.bytes > 10_000, 'its size on disk');
  t.equal(out.index_model.name, 'acme/pull-me');
  const human = await cli(['models', 'list', '--config', config]);
  t.match(human.stdout, /acme\/pull-me@main .* ready .*\(built the index, configured\)/);

  const missing = await cli(['models', 'pull', 'acme/nope', '--config', config, '--hub-url', hub.url]);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /model_missing: acme\/nope@main was not found/);
});
