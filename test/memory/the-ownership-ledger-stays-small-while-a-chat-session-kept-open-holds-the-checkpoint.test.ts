// The memory actor keeps a ledger of who recorded each episode the index cannot answer for yet (the ownership checks
// of POST /v1/episodes and forget). Its entries dropped only as the index's journal checkpoint moved, and a chat
// session kept open by steady traffic holds the checkpoint at its first message: every episode journaled meanwhile —
// the session's own messages, tasks, other sessions — stayed in the ledger. Now an entry goes once the index answers
// for it alike, and a closed session's messages the index does not keep go once the close is in: under many
// messages of one open session (and tasks and other sessions beside it) the ledger holds only what the index cannot
// answer for, and who recorded what is still checked as before — also after a restart over that index.
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { agent, chatEpisode as chat } from '../gateway/agents/helpers.js';
import { httpCall, makeVault, startDaemon, testConfig, type Running } from '../helpers/daemon.js';

function checkpoint(dataDir: string): number {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    const v = db.prepare(`SELECT value FROM meta WHERE key = 'episodes_checkpoint'`).pluck().get() as string;
    return (JSON.parse(v) as { seq: number }).seq;
  } finally {
    db.close();
  }
}

async function held(d: Running): Promise<number> {
  const m = (await d.api('GET', '/metrics')).body as string;
  const v = /^memvault_episode_owners_held (\d+)$/m.exec(m)?.[1];
  if (v === undefined) throw new Error('memvault_episode_owners_held is not in /metrics');
  return Number(v);
}

const ROUNDS = 12;

t.test('the ownership ledger stays small while one open session holds the checkpoint', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const alpha = agent(cfg.data_dir, 'alpha', { scope: 'write' });
  const beta = agent(cfg.data_dir, 'beta', { scope: 'write' });
  const post = (tok: string, episodes: unknown[]) => httpCall(d.url, 'POST', '/v1/episodes', { episodes }, { token: tok });

  // the long session: its first message (seq 1) is where the checkpoint stays while it is open
  t.equal(
    (
      await post(alpha, [
        chat('long', 'q0', 'user', 'Shall we plan the survey of the river banks for the spring?'),
        chat('long', 'tool0', 'tool', 'survey calendar: april 3, april 17, may 1'), // never indexed: held until closed
      ])
    ).status,
    200,
  );
  for (let i = 1; i <= ROUNDS; i++) {
    const r = await post(alpha, [
      chat('long', `a${i}`, 'assistant', `Round ${i}: the survey team walks the bank stretch number ${i}.`),
      chat('long', `q${i}`, 'user', `After round ${i}, what does the survey team check next?`),
      { type: 'task', task_id: `T-${i}`, title: `Survey bank stretch ${i}`, status: 'open' },
      chat(`short-${i}`, 'm1', 'user', `A quick question about stretch ${i} of the river bank`),
      chat(`short-${i}`, 'm2', 'tool', `lookup ${i}`),
    ]);
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.equal((await httpCall(d.url, 'POST', `/v1/episodes/sessions/short-${i}/close`, {}, { token: alpha })).status, 200);
    await d.daemon.whenCaughtUp();
  }
  t.equal(checkpoint(cfg.data_dir), 1, 'the open session holds the checkpoint at its first message');
  t.equal(await held(d), 1, 'the ledger holds only the open session’s tool message, which the index does not keep');

  // who recorded what is checked as before: the index answers for what the ledger let go
  const refused = async (what: string, ep: unknown) => {
    const r = await post(beta, [ep]);
    t.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  };
  await refused('an indexed message of the open session', chat('long', 'q3', 'user', 'Beta takes over round three'));
  await refused('its unindexed message', chat('long', 'tool0', 'tool', 'beta calendar'));
  await refused('a task', { type: 'task', task_id: 'T-5', title: 'Beta survey', status: 'open' });
  await refused("a closed session's indexed message", chat('short-2', 'm1', 'user', 'Beta rewrites stretch two'));
  // a closed session's unindexed message is free once the close is in, though the checkpoint has not moved
  t.equal((await post(beta, [chat('short-2', 'm2', 'tool', 'beta lookup')])).status, 200);
  const forgot = await httpCall(d.url, 'POST', '/v1/tools/memory_forget', { episode_id: 'task:T-5' }, { token: beta });
  t.equal(forgot.status, 403, "beta may not forget alpha's task");
  await d.daemon.whenCaughtUp();
  t.equal(await held(d), 2, 'and beta’s tool message, which opened a new stretch of short-2: held while it is open');

  // a restart reads the journal from the checkpoint into the ledger, then lets go what the index answers for
  await d.stop();
  d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  t.equal(checkpoint(cfg.data_dir), 1, 'still open after the restart');
  await refused('after the restart: a task', { type: 'task', task_id: 'T-7', title: 'Beta survey', status: 'open' });
  await refused('after the restart: the unindexed message', chat('long', 'tool0', 'tool', 'beta calendar'));
  t.equal(await held(d), 2, 'after the restart the ledger is as small again');
});
