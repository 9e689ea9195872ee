// onnxruntime-node aborts the whole process when a thread dies inside `session.run`. The embedding pools belong to
// main, so killing the embedder actor while its batches are in the model restarts the actor and nothing else.
import t from 'tap';
import { allZero, indexConsistency, nextRestart, daemonOn } from '../helpers/daemon.js';

t.test('the embedder is killed three times while batches are in the model; the daemon lives and indexes all', async (t) => {
  const { v, d } = await daemonOn(t, {});
  const n = 150;
  for (let i = 0; i < n; i++)
    v.write(`Inbox/n${i}.md`, `# Note ${i}\n\n${`Sentence ${i} about lighthouses, keepers and the storms they sat out. `.repeat(30)}\n`);
  for (let k = 0; k < 3; k++) {
    // the next note the embedder hands on means its batches are running in the pool right now
    await new Promise<void>((resolve) => {
      const off = d.daemon.onRouted((m) => {
        if (m.type === 'store.upsert' && (d.daemon.handles.embedder?.depth() ?? 0) > 0) {
          off();
          resolve();
        }
      });
    });
    const restarted = nextRestart(d.daemon, 'embedder');
    await d.daemon.handles.embedder!.crash(`test: killed mid-inference ${k + 1}`);
    await restarted;
  }
  await d.daemon.whenCaughtUp();
  const st = (await d.api('GET', '/v1/status')).body.index;
  t.equal(st.documents, n, 'every note is indexed');
  t.equal(st.vectors, st.chunks, 'every chunk has its vector');
  t.ok(allZero(await indexConsistency(d.cfg.data_dir)), 'the index tables agree');
  const r = await d.search('Sentence 149 lighthouses keepers', { k: 3 });
  t.equal(r.mode, 'hybrid', 'vector search still works after the restarts');
});
