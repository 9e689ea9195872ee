// First use downloads the export's files from a hub (HF layout: HEAD, the CDN redirect for LFS files, the commit the
// branch pointed at) into <models>/<org>--<name>@<revision>/ with a manifest; the next load checks the files against
// the manifest and asks the hub nothing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ensureHubModel } from '../../../actors/embedder/providers/hub.js';
import { FakeHub } from '../../helpers/fake-hub.js';
import { makeExport } from '../providers/helpers/make-export-fixture.js';
import { collect, specFor } from './helpers/spec.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test('a hub model is downloaded once and then loaded from its manifest', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('wordpiece');
  const commit = hub.publish('acme/mini-embed', files);
  const models = t.testdir();
  const spec = specFor(hub.url, models, 'acme/mini-embed');

  const ev = collect();
  const first = await ensureHubModel(spec, ev.on);
  t.equal(first.downloaded, true);
  t.equal(first.dir, path.join(models, 'acme--mini-embed@main'));
  t.equal(first.manifest.model_file, 'onnx/model.onnx');
  t.equal(first.manifest.commit, commit);
  for (const [rel, bytes] of Object.entries(files)) {
    if (rel === 'vocab.txt') continue; // fetched only when there is no tokenizer.json
    t.same(readFileSync(path.join(first.dir, rel)), bytes, `${rel} is in place, byte for byte`);
    t.equal(first.manifest.files[rel]?.sha256, sha256(bytes), `${rel}'s sha256 is recorded`);
  }
  t.ok(first.manifest.absent.includes('config_sentence_transformers.json'), 'a file the repository lacks is recorded as absent');
  t.notOk(existsSync(path.join(first.dir, 'special_tokens_map.json')));
  t.notOk(existsSync(path.join(first.dir, 'vocab.txt')), 'vocab.txt is not needed beside tokenizer.json');
  t.equal(hub.count('/cdn/', 'GET'), 1, 'the ONNX file came from the CDN the hub redirected to');
  const later = hub.requests.filter((r) => r.path.includes('/resolve/') && !r.path.endsWith('/config.json'));
  t.ok(
    later.length > 0 && later.every((r) => r.path.includes(`/resolve/${commit}/`)),
    'after the first file, every file is asked at its commit',
  );
  t.same(
    readdirSync(first.dir, { recursive: true }).filter((f) => String(f).endsWith('.incomplete') || String(f).endsWith('.etag')),
    [],
    'no temp files are left',
  );
  t.notOk(existsSync(`${first.dir}.lock`), 'the lock is released');
  t.equal(ev.of('downloaded').length, 1);

  const before = hub.requests.length;
  const second = await ensureHubModel(spec);
  t.equal(second.downloaded, false);
  t.same(second.manifest, first.manifest);
  t.equal(hub.requests.length, before, 'the second load asked the hub nothing');
});

t.test("a renamed repository is followed through the hub's relative redirect", async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/new-name', makeExport('bpe'));
  hub.rename('acme/old-name', 'acme/new-name');
  const got = await ensureHubModel(specFor(hub.url, t.testdir(), 'acme/old-name'));
  t.equal(got.downloaded, true);
  t.ok(existsSync(path.join(got.dir, 'onnx/model.onnx')));
  t.ok(hub.count('/acme/new-name/resolve/') > 0);
});

t.test('a repository, revision or ONNX file that does not exist fails with model_missing', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/mini-embed', makeExport('unigram'));
  const models = t.testdir();
  const fails = async (over: Parameters<typeof specFor>[3], repo = 'acme/mini-embed') => {
    try {
      await ensureHubModel(specFor(hub.url, models, repo, over));
    } catch (err) {
      return err as Error & { code: string };
    }
    throw new Error('expected a failure');
  };
  let e = await fails({}, 'acme/nothing-here');
  t.equal(e.code, 'model_missing');
  t.match(e.message, /acme\/nothing-here@main was not found/);
  e = await fails({ revision: 'v9' });
  t.equal(e.code, 'model_missing');
  e = await fails({ file: 'onnx/model_int8.onnx' });
  t.equal(e.code, 'model_missing');
  t.match(e.message, /has no onnx\/model_int8\.onnx: set embedder\.onnx\.file/);
});
