// A download cut off mid-file is resumed with Range from the bytes already on disk (If-Range: its ETag, on the hub's
// own host), and the file only ever appears in place whole; a server without Range support is read again from the start.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ensureHubModel } from '../../../actors/embedder/providers/hub.js';
import { FakeHub } from '../../helpers/fake-hub.js';
import { makeExport } from '../providers/helpers/make-export-fixture.js';
import { collect, specFor } from './helpers/spec.js';

const MODEL = 'onnx/model.onnx';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gitBlob = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

t.test('a cut-off ONNX file is resumed from where it stopped', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('unigram');
  const bytes = files[MODEL]!;
  hub.publish('acme/resume', files);
  const half = Math.floor(bytes.length / 2);
  hub.truncate(MODEL, half);
  const tokenizer = files['tokenizer.json']!;
  hub.truncate('tokenizer.json', 100); // a small file, served by the hub itself
  const ev = collect();
  const got = await ensureHubModel(specFor(hub.url, t.testdir(), 'acme/resume'), ev.on);
  const retries = ev.of('retry');
  t.same(
    retries.map((r) => [r.file, r.reason]),
    [
      ['tokenizer.json', 'truncated'],
      [MODEL, 'truncated'],
    ],
    'each cut-off is refused with its reason',
  );
  const gets = hub.requests.filter((r) => r.method === 'GET' && r.path.includes('/cdn/'));
  t.equal(gets.length, 2);
  t.equal(gets[0]?.range, null);
  t.equal(gets[1]?.range, `bytes=${half}-`, 'the second GET asks only for the rest');
  t.equal(gets[1]?.ifRange, null, 'the CDN URL names its content: no If-Range');
  const tok = hub.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/tokenizer.json'));
  t.equal(tok[1]?.range, 'bytes=100-');
  t.equal(tok[1]?.ifRange, `"${gitBlob(tokenizer)}"`, "on the hub's host, guarded by the file's ETag");
  t.same(readFileSync(path.join(got.dir, 'tokenizer.json')), tokenizer);
  t.same(readFileSync(path.join(got.dir, MODEL)), bytes, 'the file is whole and right');
  t.equal(got.manifest.files[MODEL]?.sha256, sha256(bytes));
  t.notOk(existsSync(path.join(got.dir, `${MODEL}.incomplete`)));
});

t.test('a server that ignores Range sends the file again from the start', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('bpe');
  hub.publish('acme/no-range', files);
  hub.ignoreRange();
  hub.truncate(MODEL, 1000);
  const got = await ensureHubModel(specFor(hub.url, t.testdir(), 'acme/no-range'));
  t.same(readFileSync(path.join(got.dir, MODEL)), files[MODEL]);
});

t.test('a file cut off on every attempt fails without a half file in place, and the next start finishes it', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('wordpiece');
  const bytes = files[MODEL]!;
  hub.publish('acme/flaky', files);
  // three attempts, each cut 1 000 bytes further on
  hub.truncate(MODEL, 1000, 3);
  const models = t.testdir();
  const spec = specFor(hub.url, models, 'acme/flaky');
  const err = await ensureHubModel(spec).then(
    () => null,
    (e: Error & { code: string }) => e,
  );
  t.equal(err?.code, 'model_unavailable');
  t.match(err?.message, /onnx\/model\.onnx stayed incomplete after 3 attempts/);
  const dir = path.join(models, 'acme--flaky@main');
  t.notOk(existsSync(path.join(dir, MODEL)), 'no half model in place');
  t.notOk(existsSync(path.join(dir, 'manifest.json')), 'and no manifest: the folder is not a model yet');
  t.ok(existsSync(path.join(dir, `${MODEL}.incomplete`)), 'the bytes received are kept for the next attempt');

  const ev = collect();
  const got = await ensureHubModel(spec, ev.on);
  t.ok((ev.of('file').find((e) => e.file === MODEL)?.resumeFrom ?? 0) > 0, 'the next start resumes');
  t.same(readFileSync(path.join(got.dir, MODEL)), bytes);
});
