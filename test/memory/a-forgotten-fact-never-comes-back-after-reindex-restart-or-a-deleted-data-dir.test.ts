// Forgetting without resurrection, on a real daemon: a fact is forgotten by a tombstone committed to the vault (the
// log itself untouched), stays forgotten through `reindex`, a restart and a deleted data dir, and comes back only
// when vault_undo_last reverts the tombstone; chat messages, tasks and corrections are forgotten by id with a
// tombstone in the journal and stay forgotten through a reindex (the journal replayed from its first line).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, makeVault, startDaemon, testConfig, within, type Running } from '../helpers/daemon.js';

const facts = async (d: Running, q: string) =>
  (await d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.snippet as string);
const words = async (d: Running, q: string) =>
  (await d.search(q, { mode: 'bm25' })).results.map((r: any) => `${r.source_type} ${r.snippet}`);

t.test('forgetting', async (t) => {
  const v = makeVault({ 'Inbox/door.md': '# Door\n\nThe side door sticks in winter.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const remember = async (content: string) => (await d.tool('memory_remember', { content, category: 'office', wait_indexed: true })).body;
  const old = await remember('The door code is 4417');
  const kept = await remember('The door code changed to 9021');
  const logPath = path.join(v.dir, old.path);
  const logBefore = readFileSync(logPath, 'utf8');

  await t.test('a fact is forgotten by a committed tombstone; the log is not edited', async (t) => {
    const dry = await d.tool('memory_forget', { query: 'door code 4417' });
    t.equal(dry.status, 200);
    t.same(dry.body.forgotten, [], 'a query without confirm forgets nothing');
    t.equal(dry.body.candidates[0].fact_id, old.fact_id, 'it lists what it would forget');
    const r = await d.tool('memory_forget', { query: 'door code 4417', confirm: true, reason: 'rotated' }, 'agent-9');
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.same(r.body.forgotten, [{ fact_id: old.fact_id, text: 'the door code is 4417' }]);
    t.equal(r.body.indexed, true, 'answered once search no longer finds it');
    t.equal(r.body.path, 'Memory/tombstones.jsonl');
    t.match(
      git(v.dir, 'show', '-s', '--format=%B', r.body.commit),
      /Memvault-Op: forget[\s\S]*Memvault-Agent: agent-9[\s\S]*Memvault-Reason: rotated/,
    );
    const stone = JSON.parse(readFileSync(path.join(v.dir, 'Memory/tombstones.jsonl'), 'utf8').trim());
    t.match(stone, { fact: 'the door code is 4417', fact_id: old.fact_id, agent: 'agent-9', reason: 'rotated' });
    t.equal(readFileSync(logPath, 'utf8'), logBefore, 'the day log is byte for byte as it was');
    t.same(await facts(d, 'door code'), ['[office] The door code changed to 9021'], 'only the new code is found');
    t.equal((await d.tool('memory_forget', { fact_id: old.fact_id })).body.error.reason, 'not_found', 'forgotten already');
    t.equal((await d.tool('memory_forget', { fact_id: old.fact_id, query: 'x' })).body.error.reason, 'bad_request', 'one way at a time');
  });

  await t.test('episodes are forgotten by id, with a tombstone in the journal', async (t) => {
    const r = await d.api('POST', '/v1/episodes', {
      episodes: [
        { type: 'chat', session_id: 'hr', message_id: 'q1', role: 'user', text: 'My salary is 71500 and I want a raise' },
        { type: 'chat', session_id: 'hr', message_id: 'a1', role: 'assistant', text: 'Let us prepare the case for the review meeting' },
        { type: 'task', task_id: 'T-1', title: 'Send the passport scan zebra', status: 'open' },
        {
          type: 'correction',
          correction_id: 'C-1',
          field: 'iban',
          original: 'DE00 quokka',
          corrected: 'DE11 quokka',
          input: 'payroll form',
        },
      ],
    });
    t.equal(r.status, 200);
    await d.api('POST', '/v1/episodes/sessions/hr/close');
    await d.daemon.whenCaughtUp();
    t.equal((await words(d, '71500')).length, 1);
    const msg = await d.tool('memory_forget', { episode_id: 'chat:hr:q1' });
    t.same(msg.body.forgotten, [{ episode_id: 'chat:hr:q1' }]);
    t.same(await words(d, '71500'), [], 'the message is gone');
    t.same(
      await words(d, 'review meeting'),
      ['chat Assistant: Let us prepare the case for the review meeting'],
      'the rest of its turn stays',
    );
    for (const id of ['task:T-1', 'correction:C-1'])
      t.same((await d.tool('memory_forget', { episode_id: id })).body.forgotten, [{ episode_id: id }]);
    t.same(await words(d, 'zebra'), []);
    t.same(await words(d, 'quokka'), []);
    t.equal((await d.tool('memory_forget', { episode_id: 'task:nope' })).body.error.reason, 'not_found');
  });

  await t.test('reindex brings back neither the fact nor the episodes', async (t) => {
    t.equal((await d.api('POST', '/v1/reindex', {})).status, 200);
    await d.daemon.whenCaughtUp();
    t.same(await facts(d, 'door code'), ['[office] The door code changed to 9021'], 'after reindex');
    for (const q of ['71500', 'zebra', 'quokka']) t.same(await words(d, q), [], `after reindex: ${q}`);
    t.same(await words(d, 'review meeting'), ['chat Assistant: Let us prepare the case for the review meeting']);
  });

  await t.test('a restart on a deleted data dir does not bring the fact back: the tombstone is in the vault', async (t) => {
    await d.stop();
    rmSync(cfg.data_dir, { recursive: true, force: true });
    d = await startDaemon(cfg);
    await d.daemon.whenCaughtUp();
    t.same(await facts(d, 'door code'), ['[office] The door code changed to 9021']);
    t.equal((await d.search('side door winter', { mode: 'bm25' })).results[0]?.path, 'Inbox/door.md', 'the vault is indexed again');
  });

  await t.test('vault_undo_last reverts the tombstone and the fact comes back', async (t) => {
    const back = new Promise<void>((resolve) => {
      const off = d.daemon.onRouted((m) => {
        if (m.type === 'store.episodes' && m.batch.upserts.some((u) => u.sourceId === old.fact_id)) {
          off();
          resolve();
        }
      });
    });
    const u = await d.tool('vault_undo_last', { only_mine: false });
    t.equal(u.status, 200, JSON.stringify(u.body));
    t.same(u.body.paths, ['Memory/tombstones.jsonl']);
    await within(back, 20_000, 'the fact to be indexed again');
    await d.daemon.whenCaughtUp();
    t.same((await facts(d, 'door code')).sort(), ['[office] The door code changed to 9021', '[office] The door code is 4417']);
    t.equal(kept.path, old.path);
  });
});
