// embedder.onnx.sha256 pins a file: a download that differs is refused (at once when the hub's own ETag agrees with
// what came: the hub serves another file, retrying cannot help), and a cached copy that differs is refused unasked.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ensureHubModel } from '../../../actors/embedder/providers/hub.js';
import { FakeHub } from '../../helpers/fake-hub.js';
import { makeExport } from '../providers/helpers/make-export-fixture.js';
import { specFor } from './helpers/spec.js';

const MODEL = 'onnx/model.onnx';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test('a pinned sha256 that does not match is refused', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('wordpiece');
  hub.publish('acme/pinned', files);
  const models = t.testdir();
  const wrong = 'ab'.repeat(32);

  const err = await ensureHubModel(specFor(hub.url, models, 'acme/pinned', { modelSha256: wrong })).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err?.code, 'checksum_mismatch');
  t.match(err?.message, new RegExp(`pinned ${wrong}.*check embedder\\.onnx\\.sha256`));
  t.equal(hub.count('/cdn/', 'GET'), 1, 'not retried: the hub serves that file');
  t.notOk(existsSync(path.join(models, 'acme--pinned@main', MODEL)), 'the refused file is not in place');
  t.notOk(existsSync(path.join(models, 'acme--pinned@main', 'manifest.json')));

  const pinTokenizer = { 'tokenizer.json': wrong };
  const err2 = await ensureHubModel(specFor(hub.url, models, 'acme/pinned', { sha256: pinTokenizer })).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err2?.code, 'checksum_mismatch', 'a pin per file works the same');

  const right = sha256(files[MODEL]!);
  const ok = await ensureHubModel(specFor(hub.url, models, 'acme/pinned', { modelSha256: right }));
  t.equal(ok.manifest.files[MODEL]?.sha256, right);

  const before = hub.requests.length;
  const err3 = await ensureHubModel(specFor(hub.url, models, 'acme/pinned', { modelSha256: wrong })).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err3?.code, 'checksum_mismatch', 'a cached copy that differs from a new pin is refused');
  t.match(err3?.message, /fix the pin, or delete/);
  t.equal(hub.requests.length, before, 'without asking the hub');
  t.ok(existsSync(path.join(ok.dir, MODEL)), 'and without deleting the cached copy');
});
