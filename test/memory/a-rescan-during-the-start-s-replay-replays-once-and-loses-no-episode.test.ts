// The memory actor replays the episode journal at start in the background. A rescan (the index file swapped by a
// reindex, or deleted and made afresh) that came while that replay ran started a second replay at once: both applied
// to the same core, which skips anything at or below the highest seq applied, so the replay from the new index's
// checkpoint skipped what the start's replay had reached, and those episodes never reached the new index. A rescan
// now supersedes the running replay, which stops at its next step, and the journal is replayed once.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { startEmbeddingsServer } from '../embedder/providers/helpers/embeddings-server.js';
import { makeVault, startDaemon, testConfig, within } from '../helpers/daemon.js';

const TASKS = 6_000;
/** The start's replay is held mid-way, once the model is asked for this task's text (the replay is past it then). */
const MARK = 3_000;
const title = (i: number) => `Ship crate k${i}x to the harbour`;

function indexedTasks(dataDir: string): number {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    const q = `SELECT count(*) n FROM memory_documents WHERE source_type = 'task' AND deleted_at IS NULL`;
    return (db.prepare(q).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

t.test(
  'an index lost while the start replays the journal gets every episode from the one replay after',
  { timeout: 300_000 },
  async (t) => {
    const emb = await startEmbeddingsServer(8);
    t.teardown(() => emb.close());
    const v = makeVault({ 'Inbox/a.md': '# A\n\nA note so the vault is not empty.\n' });
    t.teardown(() => v.cleanup());
    const cfg = testConfig(
      v.dir,
      `embedder:\n  provider: openai\n  openai:\n    base_url: ${JSON.stringify(emb.baseUrl)}\n    model: stand-in\n`,
    );
    let d = await startDaemon(cfg);
    let stopped = false;
    t.teardown(() => (stopped ? undefined : d.stop()));
    const at = Date.now() - 3_600_000;
    for (let i = 0; i < TASKS; i += 1_000) {
      const episodes = Array.from({ length: 1_000 }, (_, k) => ({
        type: 'task',
        task_id: `T-${i + k}`,
        title: title(i + k),
        status: 'open',
        at,
      }));
      const r = await d.api('POST', '/v1/episodes', { episodes });
      t.equal(r.status, 200, JSON.stringify(r.body).slice(0, 200));
    }
    await d.daemon.whenCaughtUp();
    t.equal(indexedTasks(cfg.data_dir), TASKS, 'every task is indexed');
    await d.stop();
    stopped = true;

    // a start over no index replays the whole journal; its replay is held once it is past task MARK
    const db = path.join(cfg.data_dir, 'index.sqlite');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    const gate = emb.holdFrom((input) => input.some((text) => text.includes(`k${MARK}x`)));
    d = await startDaemon(cfg);
    stopped = false;
    await within(gate.reached, 60_000, `the start's replay to reach task ${MARK}`);

    // the index file is lost meanwhile: main makes a fresh one and the store writer has the journal replayed into it
    const rescan = new Promise<void>((resolve) => {
      const off = d.daemon.onRouted((m) => {
        if (m.type === 'memory.rescan') {
          off();
          resolve();
        }
      });
    });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    await within(rescan, 30_000, 'the memory actor to be told to rescan');
    gate.release();
    await within(d.daemon.whenCaughtUp(), 120_000, 'the daemon to catch up');
    t.equal(indexedTasks(cfg.data_dir), TASKS, 'every task is in the fresh index');
    const found = await d.search(`k${MARK + 500}x`, { mode: 'bm25', filters: { source_type: 'task' } });
    t.equal(found.results[0]?.task_id, `T-${MARK + 500}`, 'a task the start replay had reached is found');
  },
);
