// Retention on a real daemon: the sweep removes exactly the chat, task and correction rows older than their
// retention — with their chunks, FTS and vector rows — and never a fact or a vault note, however old. Times compare
// as instants: a row one minute inside its window survives (the seed compared SQLite `datetime('now')` text with ISO
// `T` text and removed a day too much). Journal days older than the longest retention are dropped.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const DAY = 86_400_000;

function ids(dataDir: string): string[] {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    return db.prepare(`SELECT source_type || ' ' || source_id FROM memory_documents ORDER BY 1`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

t.test('the retention sweep', async (t) => {
  const v = makeVault({
    'Inbox/ancient.md': '# Ancient\n\nA note from long ago.\n',
    // a day log from six years ago: facts are durable, whatever their age
    'Memory/Log/2020-03-01.md': '# 2020-03-01\n\n## 09:00 — agent\n- Carol founded the chess club\n',
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  // a journal day from 2020 (a backup restored, say): older than the longest retention (365 days)
  mkdirSync(path.join(cfg.data_dir, 'episodes'), { recursive: true });
  const old = Date.UTC(2020, 2, 1);
  writeFileSync(
    path.join(cfg.data_dir, 'episodes', '2020-03-01.jsonl'),
    `${JSON.stringify({ k: 'ep', ep: { type: 'task', task_id: 'T-2020', title: 'File the 2019 taxes', status: 'done' }, at: old, seq: 1, rt: old, agent: 'a' })}\n`,
  );
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();

  const now = Date.now();
  const minute = 60_000;
  const chat = (session: string, at: number) => ({
    type: 'chat',
    session_id: session,
    message_id: 'm1',
    role: 'user',
    text: `Message of session ${session}`,
    at,
  });
  const r = await d.api('POST', '/v1/episodes', {
    episodes: [
      chat('expired', now - 90 * DAY - minute),
      chat('inside', now - 90 * DAY + minute),
      chat('fresh', now - DAY),
      { type: 'task', task_id: 'T-expired', title: 'Old task', status: 'open', at: now - 365 * DAY - minute },
      { type: 'task', task_id: 'T-inside', title: 'Kept task', status: 'open', at: now - 365 * DAY + minute },
      {
        type: 'correction',
        correction_id: 'C-expired',
        field: 'f',
        original: 'a',
        corrected: 'b',
        input: 'x',
        at: now - 365 * DAY - minute,
      },
      {
        type: 'correction',
        correction_id: 'C-inside',
        field: 'f',
        original: 'a',
        corrected: 'b',
        input: 'y',
        at: now - 365 * DAY + minute,
      },
    ],
  });
  t.equal(r.status, 200);
  for (const s of ['expired', 'inside', 'fresh']) await d.api('POST', `/v1/episodes/sessions/${s}/close`);
  await d.daemon.whenCaughtUp();
  const before = ids(cfg.data_dir);
  t.ok(
    before.some((x) => x.startsWith('fact ')),
    'the old fact is indexed',
  );
  t.notOk(before.includes('task T-2020'), 'the sweep after the start replay removed the task of the 2020 journal day');
  t.notOk(existsSync(path.join(cfg.data_dir, 'episodes', '2020-03-01.jsonl')), 'and dropped that journal day');
  t.match((await d.api('GET', '/metrics')).body, /memvault_pruned_rows_total\{source_type="task"\} 1/);

  const p = await d.api('POST', '/v1/prune', {});
  t.equal(p.status, 200, JSON.stringify(p.body));
  t.same(p.body.removed, { chat: 1, task: 1, correction: 1 }, 'exactly the expired ones');
  t.equal(p.body.journal_files_dropped, 0);
  const after = ids(cfg.data_dir);
  t.same(
    before.filter((x) => !after.includes(x)),
    ['chat expired:m1-m1', 'correction C-expired', 'task T-expired'],
    'removed: the expired rows and nothing else',
  );
  for (const kept of ['chat inside:m1-m1', 'chat fresh:m1-m1', 'task T-inside', 'correction C-inside', 'vault Inbox/ancient.md'])
    t.ok(after.includes(kept), `kept: ${kept}`);
  t.ok(
    after.some((x) => x.startsWith('fact 2020-03-01#')),
    'the six-year-old fact is kept: facts are durable',
  );
  t.ok(allZero(await indexConsistency(cfg.data_dir)), 'chunks, FTS and vector rows went with them');
  const m = (await d.api('GET', '/metrics')).body as string;
  t.match(m, /memvault_pruned_rows_total\{source_type="task"\} 2/);
  t.match(m, /memvault_pruned_rows_total\{source_type="chat"\} 1/);
  t.same((await d.api('POST', '/v1/prune', {})).body.removed, { chat: 0, task: 0, correction: 0 }, 'a second sweep finds nothing');
});
