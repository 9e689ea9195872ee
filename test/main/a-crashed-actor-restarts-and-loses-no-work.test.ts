// Each actor kind, crashed while it holds work, is restarted by its supervisor and the work still completes.
import t from 'tap';
import { allZero, indexConsistency, makeVault, nextRestart, startDaemon, testConfig, daemonOn } from '../helpers/daemon.js';
import { destinationOf } from '../../messages/index.js';

function notes(n: number, tag: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    files[`Inbox/${tag}-${i}.md`] =
      `# Note ${i}\n\nThis note about ${tag} number ${i} mentions lighthouse keeper ${i * 7}.\n\n## More\n\nA second section so it has two chunks, item ${i}.\n`;
  return files;
}

for (const actor of ['store', 'embedder', 'chunker', 'watcher'] as const) {
  t.test(`the ${actor} crashes mid-work, restarts, and every note is indexed`, async (t) => {
    const v = makeVault({});
    t.teardown(() => v.cleanup());
    const d = await startDaemon(testConfig(v.dir));
    t.teardown(() => d.stop());
    await d.daemon.whenCaughtUp();

    const restarted = nextRestart(d.daemon, actor);
    // crash the actor the moment work is routed to it
    let crashed = false;
    const off = d.daemon.onRouted((m) => {
      if (!crashed && destinationOf(m) === actor && (m.type !== 'watcher.done' || actor === 'watcher')) {
        crashed = true;
        off();
        void d.daemon.handles[actor]!.crash('test: injected crash');
      }
    });
    const files = notes(12, actor);
    for (const [rel, c] of Object.entries(files)) v.write(rel, c);
    await restarted;
    t.ok(crashed, 'the crash was injected while work was in flight');
    await d.daemon.whenCaughtUp();
    const st = (await d.api('GET', '/v1/status')).body.index;
    t.equal(st.documents, 12, 'every note is indexed');
    t.equal(st.vectors, st.chunks, 'every chunk has its vector');
    const r = await d.search('lighthouse keeper 77', { mode: 'bm25', k: 1 });
    t.equal(r.results[0]?.path, `Inbox/${actor}-11.md`);
    t.ok(allZero(await indexConsistency(d.cfg.data_dir)), 'index tables agree');
  });
}

t.test('the gateway crashes and serves again after its restart', async (t) => {
  const { d } = await daemonOn(t, notes(3, 'gw'));
  const restarted = nextRestart(d.daemon, 'gateway');
  await d.daemon.handles.gateway!.crash('test: injected crash');
  await restarted;
  await d.daemon.root!.whenChildRunning('gateway');
  const r = await d.search('lighthouse keeper 14', { mode: 'bm25', k: 1 });
  t.equal(r.results[0]?.path, 'Inbox/gw-2.md', 'searches answer again');
});
