// Bytes that do not match the hub's ETag (sha256 for LFS files, the git blob id for small ones) are refused and
// fetched again; a cached file that no longer matches its manifest is refused at load and fetched again; offline,
// such a file is never loaded.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ensureHubModel } from '../../../actors/embedder/providers/hub.js';
import { deadUrl, FakeHub } from '../../helpers/fake-hub.js';
import { makeExport } from '../providers/helpers/make-export-fixture.js';
import { collect, specFor } from './helpers/spec.js';

const MODEL = 'onnx/model.onnx';

t.test('a download with corrupt bytes is refused and fetched again', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('wordpiece');
  hub.publish('acme/corrupt', files);
  hub.corrupt(MODEL);
  hub.corrupt('tokenizer.json'); // a small file: checked against its git blob id
  const ev = collect();
  const got = await ensureHubModel(specFor(hub.url, t.testdir(), 'acme/corrupt'), ev.on);
  const retries = ev.of('retry');
  t.same(
    retries.map((r) => [r.file, r.reason]),
    [
      ['tokenizer.json', 'checksum_mismatch'],
      [MODEL, 'checksum_mismatch'],
    ],
  );
  t.match(retries[0]?.message, /git blob/);
  t.same(readFileSync(path.join(got.dir, MODEL)), files[MODEL]);
  t.same(readFileSync(path.join(got.dir, 'tokenizer.json')), files['tokenizer.json']);
});

t.test('bytes corrupt on every attempt fail with checksum_mismatch and nothing in place', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/bad', makeExport('bpe'));
  hub.corrupt(MODEL, 10);
  const models = t.testdir();
  const err = await ensureHubModel(specFor(hub.url, models, 'acme/bad')).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err?.code, 'checksum_mismatch');
  t.equal(hub.count('/cdn/', 'GET'), 3, 'three attempts');
  t.throws(() => readFileSync(path.join(models, 'acme--bad@main', MODEL)));
});

t.test('a cached file corrupted on disk is refused at load and fetched again; offline it is not loaded', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('unigram');
  hub.publish('acme/cached', files);
  const models = t.testdir();
  const spec = specFor(hub.url, models, 'acme/cached');
  const first = await ensureHubModel(spec);
  const file = path.join(first.dir, MODEL);
  const flipped = Buffer.from(files[MODEL]!);
  flipped[100] = flipped[100]! ^ 1;
  writeFileSync(file, flipped);

  const ev = collect();
  const gets = hub.count('/cdn/', 'GET');
  const again = await ensureHubModel(spec, ev.on);
  t.equal(ev.of('cache_corrupt')[0]?.file, MODEL, 'refused, with the file named');
  t.match(ev.of('cache_corrupt')[0]?.message, /sha256 .* was recorded at download: corrupt/);
  t.equal(again.downloaded, true);
  t.equal(hub.count('/cdn/', 'GET'), gets + 1, 'only that file was fetched again');
  t.equal(hub.count('tokenizer.json', 'GET'), 1, 'the good files were kept');
  t.same(readFileSync(file), files[MODEL]);

  writeFileSync(file, flipped.subarray(0, 500)); // truncated this time
  const offline = { ...spec, hubUrl: await deadUrl() };
  const err = await ensureHubModel(offline).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err?.code, 'model_unavailable', 'a damaged cache with no hub is unavailable, never loaded');
  t.match(err?.message, /memvault models pull acme\/cached/);
});
