// Two pool threads and the main thread load the same hub model at once: one downloads each file exactly once, the
// others wait on the folder's lock and then load the finished copy; no one renames over anyone. Only the download
// ever holds the lock (which the gateway and `models list` show as "downloading"): the loaders that waited check the
// finished copy side by side without taking it.
import { cpSync, existsSync, mkdirSync, readFileSync, watch } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { ensureHubModel, type HubEvent } from '../../../actors/embedder/providers/hub.js';
import { hubModelDir } from '../../../actors/embedder/providers/hub-paths.js';
import { FakeHub } from '../../helpers/fake-hub.js';
import { makeExport } from '../providers/helpers/make-export-fixture.js';
import { specFor } from './helpers/spec.js';

const MODEL = 'onnx/model.onnx';

t.test('concurrent loaders download a hub model once', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  const files = makeExport('unigram');
  hub.publish('acme/shared', files);
  const release = hub.hold(MODEL); // the downloader stops at the ONNX file until every loader is under way
  const spec = specFor(hub.url, t.testdir(), 'acme/shared');
  // each creation and each removal of the lock file is one 'rename' event of the models folder
  const lockName = path.basename(`${hubModelDir(spec)}.lock`);
  let lockRenames = 0;
  const watcher = watch(spec.modelsDir, (type, name) => {
    if (type === 'rename' && name === lockName) lockRenames++;
  });
  t.teardown(() => watcher.close());

  const events: HubEvent[] = [];
  let seen: () => void = () => {};
  const allWaiting = new Promise<void>((resolve) => {
    seen = () => {
      const waiting = events.filter((e) => e.type === 'waiting').length;
      const downloading = events.some((e) => e.type === 'file' && e.file === MODEL);
      if (waiting === 2 && downloading) resolve();
    };
  });
  const onEvent = (e: HubEvent) => {
    events.push(e);
    seen();
  };
  const thread = () =>
    new Promise<{ downloaded: boolean; dir: string }>((resolve, reject) => {
      const w = new Worker(new URL('./helpers/load-in-thread.js', import.meta.url), { workerData: spec });
      w.on('message', (m: { event?: HubEvent; done?: { downloaded: boolean; dir: string }; failed?: { message: string } }) => {
        if (m.event) onEvent(m.event);
        if (m.done) resolve(m.done);
        if (m.failed) reject(new Error(m.failed.message));
      });
      w.on('error', reject);
    });

  const loads = [thread(), thread(), ensureHubModel(spec, onEvent)];
  await allWaiting;
  release();
  const results = await Promise.all(loads);

  t.equal(results.filter((r) => r.downloaded).length, 1, 'one loader downloaded');
  t.ok(results.every((r) => r.dir === results[0]?.dir));
  t.equal(hub.count('/cdn/', 'GET'), 1, 'the ONNX file was fetched once');
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json'])
    t.equal(
      hub.requests.filter(
        (r) => r.method === 'GET' && r.path.endsWith(`/${f}`) && r.path.split('/resolve/')[1]?.split('/').slice(1).join('/') === f,
      ).length,
      1,
      `${f} was fetched once`,
    );
  t.same(readFileSync(path.join(results[0]!.dir, MODEL)), files[MODEL]);
  await new Promise((r) => setImmediate(r)); // the watcher's last events are delivered
  t.equal(lockRenames, 2, 'the lock was taken once and let go once: by the download, never by a loader that waited');
});

// A loader that looked at the folder before another finished it, and reached the lock only after that one let go,
// took the free lock and downloaded the whole model again — the lock reading "downloading" all the while (a daemon
// test saw a search answer by keyword after the download was done). Under the lock it now looks again first.
t.test('a loader that looked before another finished, and locks after, loads the finished copy', async (t) => {
  const hub = await FakeHub.start();
  t.teardown(() => hub.close());
  hub.publish('acme/late', makeExport('unigram'));
  const root = t.testdir();
  const finished = specFor(hub.url, path.join(root, 'other'), 'acme/late');
  await ensureHubModel(finished); // what the other loader left: a whole copy with its manifest
  const before = hub.requests.length;

  const spec = specFor(hub.url, path.join(root, 'models'), 'acme/late');
  mkdirSync(spec.modelsDir, { recursive: true });
  const load = ensureHubModel(spec); // its first look, synchronous up to its first await, finds an empty folder
  cpSync(hubModelDir(finished), hubModelDir(spec), { recursive: true }); // the other loader finishes and lets go
  const r = await load;
  t.equal(r.downloaded, false, 'loaded the finished copy');
  t.same(hub.requests.slice(before), [], 'and asked the hub nothing');
  t.notOk(existsSync(`${hubModelDir(spec)}.lock`), 'the lock it took to look again is gone');
});
