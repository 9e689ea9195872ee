// The memory commands as a user runs them: `backfill` imports a JSONL export without a daemon and again through one
// (idempotent: the second run changes no row count; a bad line fails the run without stopping the other sources),
// `recall` lists what searches brought back most, `prune` sweeps, `forget` forgets, `status` counts by source.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';
import { httpCall, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';

function counts(dataDir: string): Record<string, number> {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT source_type AS t, count(*) AS n FROM memory_documents GROUP BY 1`).all() as Array<{
      t: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.t, r.n]));
  } finally {
    db.close();
  }
}

t.test('memory commands', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Kayaks\n\nThe kayak club meets on Sundays.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const conf = ['--config', cfg.config_file!, '--vault', v.dir];
  const exportFile = path.join(path.dirname(v.dir), 'export.jsonl');
  const lines = [
    ...Array.from({ length: 6 }, (_, i) => ({
      type: 'chat',
      session_id: `s${i % 2}`,
      message_id: `m${i}`,
      role: i % 4 < 2 ? 'user' : 'assistant',
      text: `Exported message ${i} about the kayak trip to the lake`,
      at: Date.now() - 3_600_000 + i * 1000,
    })),
    { type: 'task', task_id: 'T-1', title: 'Buy a spray skirt for the kayak', status: 'open' },
    { type: 'correction', correction_id: 'C-1', field: 'lake', original: 'Tegel', corrected: 'Wannsee', input: 'trip' },
  ];
  writeFileSync(exportFile, `${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json at all\n`);

  await t.test('backfill without a daemon imports every source, says a bad line failed, and is idempotent', async (t) => {
    const first = await cli(['backfill', ...conf, '--source', 'all', '--from', exportFile, '--json']);
    t.equal(first.code, 1, 'a line that is not JSON fails the run');
    const out = JSON.parse(first.stdout);
    t.equal(out.via, 'direct');
    t.equal(out.unreadable_lines, 1);
    t.same(
      out.results.map((r: any) => [r.source, r.accepted, r.rejected, r.error]),
      [
        ['chat', 6, 0, null],
        ['task', 1, 0, null],
        ['correction', 1, 0, null],
        ['vault', 0, 0, null],
      ],
      'the other sources went in all the same',
    );
    const c1 = counts(cfg.data_dir);
    t.match(c1, { vault: 1, chat: 4, task: 1, correction: 1 }, 'two closed sessions, two turns each (user, assistant | user)');
    await cli(['backfill', ...conf, '--source', 'all', '--from', exportFile, '--json']);
    t.same(counts(cfg.data_dir), c1, 'a second run changes no row count');
    const chatOnly = await cli(['backfill', ...conf, '--source', 'chat']);
    t.equal(chatOnly.code, 2, '--source chat needs --from');
    const missing = await cli(['backfill', ...conf, '--source', 'chat', '--from', path.join(cfg.data_dir, 'no-such.jsonl')]);
    t.equal(missing.code, 1, 'a --from file that cannot be read is a failure, not a usage error');
    t.match(missing.stderr, /^memvault: cannot read --from .*no-such\.jsonl: ENOENT[^\n]*\n$/, 'said once, without the usage text');
  });

  await t.test('through a running daemon: backfill again, recall, prune, forget, status', async (t) => {
    const d = await startDaemon(cfg);
    writeDaemonInfo(cfg, { pid: process.pid, url: d.url, started_at: new Date().toISOString() });
    t.teardown(async () => {
      removeDaemonInfo(cfg.data_dir, process.pid);
      await d.stop();
    });
    await d.daemon.whenCaughtUp();
    const c1 = counts(cfg.data_dir);
    const again = await cli(['backfill', ...conf, '--source', 'task', '--from', exportFile, '--json']);
    t.equal(again.code, 1, 'the bad line still fails the run');
    t.equal(JSON.parse(again.stdout).via, 'daemon');
    await d.daemon.whenCaughtUp();
    t.same(counts(cfg.data_dir), c1, 'no row count changed');

    for (const [q, agent] of [
      ['kayak trip', 'agent-a'],
      ['kayak trip lake', 'agent-b'],
      ['spray skirt', 'agent-a'],
    ])
      t.equal((await httpCall(d.url, 'POST', '/v1/search', { query: q, mode: 'bm25', k: 3 }, { token: d.token, agent })).status, 200);
    const recall = await cli(['recall', ...conf, '--since', '1d', '--top', '2', '--json']);
    t.equal(recall.code, 0, recall.stderr);
    const rec = JSON.parse(recall.stdout);
    t.equal(rec.searches, 3);
    t.equal(rec.memories.length, 2);
    t.equal(rec.memories[0].count, 2, 'the most recalled memory first: both kayak-trip searches found it');
    t.match(rec.memories[0].id, /^chat:s\d:m\d-m\d$/);
    t.ok(rec.memories[0].count >= rec.memories[1].count);
    const human = await cli(['recall', ...conf]);
    t.match(human.stdout, /3 searches since .*; most recalled:\n\s+1\.\s+2× {2}chat:/);

    const status = await cli(['status', ...conf, '--json']);
    t.match(JSON.parse(status.stdout).index, { sources: { vault: 1, chat: 4, task: 1, correction: 1 }, episodes: { pending: 0 } });
    t.match((await cli(['status', ...conf])).stdout, /episodes: 0 pending; chat 4, correction 1, fact 0, task 1, vault 1/);

    const pruned = await cli(['prune', ...conf, '--json']);
    t.equal(pruned.code, 0, pruned.stderr);
    t.same(JSON.parse(pruned.stdout).removed, { chat: 0, task: 0, correction: 0 });
    // the CLI's calls are recorded as `cli`, not as the owner token's header-less `agent`
    const audit = await cli(['audit', ...conf, '--json']);
    const entries = JSON.parse(audit.stdout).entries as Array<{ tool: string }>;
    t.match(entries.filter((e) => e.tool === 'route:prune').at(-1), { agent: 'cli', outcome: 'ok' });

    const forgot = await cli(['forget', ...conf, '--episode', 'task:T-1']);
    t.equal(forgot.code, 0, forgot.stderr);
    t.match(forgot.stdout, /forgot task:T-1/);
    t.equal(counts(cfg.data_dir)['task'] ?? 0, 0);
    const none = await cli(['forget', ...conf, '--episode', 'task:T-1']);
    t.equal(none.code, 1);
    t.match(none.stderr, /not_found/);
  });
});
