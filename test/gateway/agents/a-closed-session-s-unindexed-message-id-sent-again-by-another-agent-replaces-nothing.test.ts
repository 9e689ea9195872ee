// A chat message the index never keeps (a role outside `index_roles`, or shorter than `min_chars` with no task verb)
// is in the episode journal only. Once its session's close is in the index, the ledger of who recorded what drops it,
// so another agent may send the same session and message id. That is not a takeover: the
// later message starts a new stretch of the session, its own turn; the first agent's message stays in the journal as
// it was sent (under its agent), the first agent's indexed messages stay its own and cannot be replaced, and a
// rebuild of the index from the journal (reindex) gives the same answer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { httpCall } from '../../helpers/daemon.js';
import { twoAgents } from './helpers.js';

/** Every journal record of the data dir (any `*.jsonl` line with a `k`), in file then line order. */
function journal(dir: string): Array<{ k: string; agent?: string; ep?: Record<string, unknown> }> {
  const out: Array<{ k: string; agent?: string; ep?: Record<string, unknown> }> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.jsonl'))
        for (const line of readFileSync(p, 'utf8').split('\n'))
          if (line.startsWith('{"') && line.includes('"k":')) out.push(JSON.parse(line));
    }
  };
  walk(dir);
  return out;
}

t.test("an unindexed message id of a closed session, sent again by another agent, replaces nothing of the first agent's", async (t) => {
  const { cfg, d, alpha, beta, post } = await twoAgents(t);
  const chat = (id: string, role: string, text: string) => ({ type: 'chat', session_id: 'walk', message_id: id, role, text });

  const first = await post(alpha, [
    chat('1', 'user', 'Which kingfisher hide opens at dawn on Saturdays?'),
    chat('2', 'tool', 'kingfisher hide list v1: north, reed bed, weir'), // a role never indexed
    chat('3', 'user', 'ok'), // too short, no task verb
  ]);
  t.equal(first.status, 200, JSON.stringify(first.body));
  const closed = await httpCall(d.url, 'POST', '/v1/episodes/sessions/walk/close', {}, { token: alpha });
  t.equal(closed.status, 200, JSON.stringify(closed.body));
  // more of alpha's work after the close: the index's checkpoint moves past the closed stretch
  t.equal((await post(alpha, [{ type: 'task', task_id: 'T-1', title: 'Count the kingfishers', status: 'open' }])).status, 200);
  await d.daemon.whenCaughtUp();

  const chats = async (): Promise<Array<{ id: string; snippet: string }>> =>
    (await d.search('kingfisher', { mode: 'bm25', filters: { source_type: 'chat' } })).results.map((r: any) => ({
      id: r.episode_id as string,
      snippet: r.snippet as string,
    }));
  const before = await chats();
  t.equal(before.length, 1, 'alpha has one indexed turn: its first message');
  t.match(before[0]!.snippet, 'Which kingfisher hide opens at dawn');
  t.notMatch(before[0]!.snippet, /hide list v1|\bok\b/, 'the tool line and the short message are not indexed');
  const alphaRecords = journal(cfg.data_dir).filter((r) => r.k === 'ep' && r.agent === 'alpha');

  // beta may send ids 2 and 3 now: nothing of alpha's holds them any more
  const again = await post(beta, [
    chat('2', 'user', 'Beta asks whether the kingfisher hide at the weir is open'),
    chat('3', 'assistant', 'Beta hears the kingfisher hide at the weir opens at six'),
  ]);
  t.equal(again.status, 200, JSON.stringify(again.body));
  // but not alpha's indexed message, closed session or not
  const takeover = await post(beta, [chat('1', 'user', 'Hijacked kingfisher question')]);
  t.equal(takeover.status, 403, JSON.stringify(takeover.body));
  t.match(takeover.body.rejected[0], { reason: 'forbidden', message: /chat:walk:1 was recorded by another agent/ });
  await d.daemon.whenCaughtUp();

  const check = async (when: string) => {
    const now = await chats();
    const alphas = now.filter((c) => c.snippet.includes('Which kingfisher hide opens at dawn'));
    t.same(alphas, before, `${when}: alpha's turn is as it was`);
    const betas = now.filter((c) => c.snippet.includes('Beta'));
    t.equal(betas.length, 1, `${when}: beta's messages are a turn of their own`);
    t.match(betas[0]!.snippet, /Beta asks[\s\S]*Beta hears/);
    t.notMatch(betas[0]!.snippet, /hide list v1|Which kingfisher/, `${when}: beta's turn holds nothing of alpha's`);
    t.notMatch(now.map((c) => c.snippet).join(' | '), 'Hijacked', `${when}: the refused message is nowhere`);
    // alpha's records are in the journal as sent, under alpha: nothing of them was rewritten or dropped
    t.same(
      journal(cfg.data_dir).filter((r) => r.k === 'ep' && r.agent === 'alpha'),
      alphaRecords,
      `${when}: alpha's journal records are untouched`,
    );
    t.same(
      alphaRecords.filter((r) => r.ep?.['type'] === 'chat').map((r) => [r.ep?.['message_id'], r.ep?.['role'], r.ep?.['text']]),
      [
        ['1', 'user', 'Which kingfisher hide opens at dawn on Saturdays?'],
        ['2', 'tool', 'kingfisher hide list v1: north, reed bed, weir'],
        ['3', 'user', 'ok'],
      ],
    );
  };
  await check('live');

  // a rebuild from the journal gives the same: the two messages with id 2 (and 3) are in different stretches
  const rebuilt = await httpCall(d.url, 'POST', '/v1/reindex', {}, { token: d.token });
  t.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
  await d.daemon.whenCaughtUp();
  await check('after reindex');
});
