// On a real daemon: a session's messages posted in racing requests, out of order, make the same turns as when posted
// one by one in order; a task entering a terminal status is embedded afresh while a priority change embeds nothing;
// replaying the whole journal (twice, over the index it built) and `reindex` leave exactly the same rows.
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { makeVault, startDaemon, testConfig, type Running } from '../helpers/daemon.js';

interface Row {
  type: string;
  id: string;
  hash: string;
  deleted: number;
  body: string | null;
}

function rows(dataDir: string): Row[] {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT d.source_type AS type, d.source_id AS id, d.content_hash AS hash, d.deleted_at IS NOT NULL AS deleted,
           (SELECT group_concat(content, '|') FROM (SELECT content FROM memory_chunks WHERE document_id = d.id ORDER BY seq)) AS body
         FROM memory_documents d WHERE d.source_type != 'vault' ORDER BY 1, 2`,
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

async function embeddings(d: Running, type: string): Promise<number> {
  const m = (await d.api('GET', '/metrics')).body as string;
  return Number(new RegExp(`memvault_episode_embeddings_total\\{source_type="${type}"\\} (\\d+)`).exec(m)?.[1] ?? 0);
}

const TEXTS = [
  'Can we move the quarterly review to Thursday afternoon?',
  'Thursday at three works, the room is free then.',
  'Great, please invite the finance team as well.',
  'Invitations sent to finance and to the two leads.',
  'call Tom',
  'Tom says he will join for the budget part only.',
  'ok',
  'Also schedule a follow-up for the week after.',
  'Follow-up booked for the 21st in the small room.',
  'One more thing: the slides need the new revenue chart.',
  'I added the chart to slide four and shared the deck.',
  'Thanks, that is everything for now.',
];

t.test('ordering, terminal re-embeds, replay and reindex', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nA note so the vault is not empty.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const base = Date.now() - 3_600_000; // recent: the sweep after each replay would remove chat older than 90 days
  const message = (session: string, i: number) => ({
    type: 'chat',
    session_id: session,
    message_id: `m${String(i).padStart(2, '0')}`,
    role: i % 2 ? 'assistant' : 'user',
    text: TEXTS[i]!,
    at: base + i * 1_000,
  });
  const posted: unknown[][] = [];
  const post = async (episodes: unknown[]) => {
    posted.push(episodes);
    const r = await d.api('POST', '/v1/episodes', { episodes });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  };

  await t.test('messages posted in racing requests, out of order, make the turns an in-order session makes', async (t) => {
    for (let i = 0; i < TEXTS.length; i++) await post([message('calm', i)]);
    const order = [7, 2, 11, 0, 5, 9, 3, 10, 1, 6, 4, 8];
    await Promise.all(order.map((i) => post([message('race', i)])));
    await d.daemon.whenCaughtUp();
    const turns = (s: string) =>
      rows(cfg.data_dir)
        .filter((r) => r.type === 'chat' && r.id.startsWith(`${s}:`))
        .map((r) => [r.id.slice(s.length), r.body]);
    t.same(turns('race'), turns('calm'));
    t.same(
      turns('calm').map(([id]) => id),
      [':m00-m01', ':m02-m03', ':m04-m07', ':m08-m09', ':m10-m11'],
      'cut at each user message after an assistant one; "call Tom" kept, "ok" dropped',
    );
  });

  await t.test('a task entering a terminal status is embedded afresh; a priority change embeds nothing', async (t) => {
    const task = (id: string, status: string, priority: number) => ({
      type: 'task',
      task_id: id,
      title: 'Renew the office lease',
      status,
      priority,
    });
    await post([task('A', 'open', 1)]);
    await d.daemon.whenCaughtUp();
    const n0 = await embeddings(d, 'task');
    await post([task('A', 'open', 3)]);
    await d.daemon.whenCaughtUp();
    t.equal(await embeddings(d, 'task'), n0, 'priority only: the stored vector is kept');
    await post([task('A', 'done', 3)]);
    await d.daemon.whenCaughtUp();
    t.equal(await embeddings(d, 'task'), n0 + 1, 'open → done: embedded');
    await post([task('B', 'open', 1)]);
    await d.daemon.whenCaughtUp();
    const n1 = await embeddings(d, 'task');
    await post([task('B', 'done', 1)]);
    await d.daemon.whenCaughtUp();
    t.equal(await embeddings(d, 'task'), n1 + 1, "B's done text equals A's, whose vector is stored, yet it is embedded afresh");
    await post([{ type: 'correction', correction_id: 'c1', field: 'owner', original: 'Ann', corrected: 'Bea', input: 'lease owner' }]);
    await d.api('POST', '/v1/episodes/sessions/calm/close');
  });

  await t.test(
    'replaying the whole journal twice (posted again; then from its first line at a restart) leaves the same rows',
    async (t) => {
      await d.daemon.whenCaughtUp();
      const before = rows(cfg.data_dir);
      t.ok(before.length >= 12, `${before.length} episode rows`);
      for (const episodes of [...posted]) await post(episodes); // every episode again, as a client retrying would
      await d.daemon.whenCaughtUp();
      t.same(rows(cfg.data_dir), before, 'posting every episode again changes nothing');
      await d.stop();
      const db = openIndex(path.join(cfg.data_dir, 'index.sqlite'), { readonly: false });
      db.prepare(`DELETE FROM meta WHERE key = 'episodes_checkpoint'`).run(); // replay from the first journal line
      db.close();
      d = await startDaemon(cfg);
      await d.daemon.whenCaughtUp();
      t.same(rows(cfg.data_dir), before, 'the whole journal replayed at start over the same index: same rows, same contents');
    },
  );

  await t.test('reindex rebuilds chat, task and correction documents from the journal exactly', async (t) => {
    const before = rows(cfg.data_dir);
    const r = await d.api('POST', '/v1/reindex', {});
    t.equal(r.status, 200);
    await d.daemon.whenCaughtUp();
    const after = rows(cfg.data_dir);
    t.equal(after.length, before.length, 'equal row counts');
    t.same(after, before, 'and contents');
  });
});
