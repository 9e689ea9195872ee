// The fact log, forgetting and a chat session's close under kill -9: the daemon (its own process) is killed the moment
// the last answer arrives, then started again. Everything acknowledged is there once (the facts in the day log and in
// search, the tombstones hiding what was forgotten, the closed session's turn searchable, the forgotten task gone),
// git status is clean and `memvault doctor` is ok.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { afterRestart, gitOut, rig } from './kill9-write-paths.js';

const found = async (d: import('./lib/daemon-process.js').ProcessDaemon, query: string): Promise<string> =>
  JSON.stringify((await d.api('POST', '/v1/search', { query, mode: 'bm25', k: 10 })).body);

t.test('remember, forget and a session close are all there after a kill -9 right after the answers', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/seed.md': '# Seed\n\nA note so the vault is not empty.\n' });
  await r.d.start();
  await r.d.caughtUp();
  const ep = await r.d.api('POST', '/v1/episodes', {
    episodes: [
      { type: 'chat', session_id: 's1', message_id: 'm1', role: 'user', text: 'the zanzibar shipment leaves on friday' },
      { type: 'chat', session_id: 's1', message_id: 'm2', role: 'assistant', text: 'noted, the zanzibar shipment on friday' },
      { type: 'task', task_id: 'T1', title: 'Call the quokka vendor about invoices', status: 'open' },
    ],
  });
  t.equal(ep.status, 200, JSON.stringify(ep.body));
  const closed = await r.d.api('POST', '/v1/episodes/sessions/s1/close', {});
  t.equal(closed.status, 200, JSON.stringify(closed.body));
  const a = await r.d.tool(
    'memory_remember',
    { content: 'Alice lives in Berlin with her marmoset', category: 'people', wait_indexed: true },
    'alice',
  );
  t.equal(a.status, 200, JSON.stringify(a.body));
  const b = await r.d.tool('memory_remember', { content: 'Bob keeps a pangolin named Kiwi', category: 'people' }, 'alice');
  t.equal(b.status, 200, JSON.stringify(b.body));
  const fa = await r.d.tool('memory_forget', { fact_id: a.body.fact_id, reason: 'moved' }, 'alice');
  t.equal(fa.status, 200, JSON.stringify(fa.body));
  const ft = await r.d.api('POST', '/v1/tools/memory_forget', { episode_id: 'task:T1' }, { agent: 'alice' });
  t.equal(ft.status, 200, JSON.stringify(ft.body));
  await r.d.kill9(); // the moment the last answer arrived

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'git status clean, no git operation half-done, doctor ok');
  const journal = readdirSync(path.join(r.dataDir, 'episodes'))
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(r.dataDir, 'episodes', f), 'utf8').split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { k: string; session?: string; id?: string });
  t.equal(journal.filter((x) => x.k === 'close' && x.session === 's1').length, 1, 'the close is in the journal once');
  t.equal(journal.filter((x) => x.k === 'forget' && x.id === 'task:T1').length, 1, 'the task’s forget is in the journal once');
  const logs = gitOut(r.v.dir, 'ls-files', 'Memory/Log').trim().split('\n');
  t.equal(logs.length, 1, 'one day log');
  const log = readFileSync(path.join(r.v.dir, logs[0]!), 'utf8');
  t.equal(log.split('pangolin').length - 1, 1, 'the fact remembered is in the log once');
  t.equal(log.split('marmoset').length - 1, 1, 'the fact forgotten stays in the log once (the log only grows)');
  const tombs = readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8').trim().split('\n');
  t.equal(tombs.length, 1, 'one tombstone');
  t.match(tombs[0], /marmoset/);
  const subjects = gitOut(r.v.dir, 'log', '--format=%s').split('\n');
  t.equal(subjects.filter((s) => s.startsWith('memvault: remember')).length, 2, 'two remember commits');
  t.equal(subjects.filter((s) => s.startsWith('memvault: forget')).length, 1, 'one forget commit');
  t.equal(subjects.filter((s) => s.startsWith('memvault: human')).length, 0, 'nothing recorded as a person’s edit');
  t.match(await found(r.d, 'pangolin Kiwi'), /pangolin/, 'the remembered fact is found');
  t.notMatch(await found(r.d, 'marmoset'), /marmoset/, 'the forgotten fact is not');
  t.notMatch(await found(r.d, 'quokka vendor'), /quokka/, 'the forgotten task is not');
  const chat = await found(r.d, 'zanzibar shipment');
  t.match(chat, /zanzibar/, 'the closed session’s turn is found');
  t.equal(chat.split('"session_id":"s1"').length - 1, 1, 'the closed session is one turn, not duplicated by the replay');
});
