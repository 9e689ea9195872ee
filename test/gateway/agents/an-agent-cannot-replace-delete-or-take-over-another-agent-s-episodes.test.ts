// Episode ids are the callers' own (task_id, session and message ids), so an agent could send another agent's id: it
// must not replace or delete that agent's task or chat message (refused `forbidden`, item by item, nothing
// journaled for it), and speaking last in another agent's session must not make the session its own to forget — a
// session several agents spoke in is forgotten only by an admin. Its own episodes it still updates.
import t from 'tap';
import { httpCall } from '../../helpers/daemon.js';
import { alphaBetaBoss, toolAs } from './helpers.js';

t.test("an agent cannot replace, delete or take over another agent's episodes", async (t) => {
  const { s, alpha, beta, boss } = await alphaBetaBoss(t);
  const url = s.d.url;
  const post = (tok: string, episodes: unknown[]) => httpCall(url, 'POST', '/v1/episodes', { episodes }, { token: tok });
  const found = async (q: string, type: string) =>
    (await s.d.search(q, { mode: 'bm25', filters: { source_type: type } })).results.map((r: any) => r.snippet as string).join(' | ');

  const first = await post(alpha, [
    { type: 'task', task_id: 'T-1', title: 'Ring the heron sanctuary about the feeder', status: 'open' },
    { type: 'chat', session_id: 'trip', message_id: '1', role: 'user', text: 'Where should the heron walk start this spring?' },
    { type: 'chat', session_id: 'trip', message_id: '2', role: 'assistant', text: 'At the north gate of the heron sanctuary.' },
  ]);
  t.equal(first.status, 200, JSON.stringify(first.body));
  await s.d.daemon.whenCaughtUp();

  const takeover = await post(beta, [
    { type: 'task', task_id: 'T-1', title: 'Hijacked heron title', status: 'open' },
    { type: 'task', task_id: 'T-1', title: 'x', status: 'open', event: 'delete' },
    { type: 'chat', session_id: 'trip', message_id: '1', role: 'user', text: 'Hijacked heron message' },
  ]);
  t.equal(takeover.status, 403, JSON.stringify(takeover.body));
  t.same(
    takeover.body.rejected.map((r: { i: number; reason: string }) => [r.i, r.reason]),
    [
      [0, 'forbidden'],
      [1, 'forbidden'],
      [2, 'forbidden'],
    ],
  );
  t.match(takeover.body.rejected[0].message, 'task:T-1');
  await s.d.daemon.whenCaughtUp();
  t.match(await found('heron', 'task'), 'Ring the heron sanctuary', "alpha's task stands");
  t.notMatch(await found('heron', 'task'), 'Hijacked');
  t.match(await found('heron', 'chat'), 'Where should the heron walk start', "alpha's message stands");
  t.notMatch(await found('heron', 'chat'), 'Hijacked');

  // a new message in alpha's session is fine, but does not make the session beta's (nor alpha's alone any more)
  const joined = await post(beta, [
    { type: 'chat', session_id: 'trip', message_id: '3', role: 'assistant', text: 'I booked the heron guide for nine.' },
  ]);
  t.equal(joined.status, 200, JSON.stringify(joined.body));
  await s.d.daemon.whenCaughtUp();
  const betaForget = await toolAs(url, beta, 'memory_forget', { episode_id: 'chat:trip' });
  t.equal(betaForget.status, 403, `speaking last does not own the session: ${JSON.stringify(betaForget.body)}`);
  t.equal((await toolAs(url, alpha, 'memory_forget', { episode_id: 'chat:trip' })).status, 403, 'nor does speaking first');
  t.match(await found('heron', 'chat'), 'Where should the heron walk start');
  t.equal((await toolAs(url, boss, 'memory_forget', { episode_id: 'chat:trip' })).status, 200, 'an admin forgets it');

  // alpha still updates and deletes its own task
  t.equal((await post(alpha, [{ type: 'task', task_id: 'T-1', title: 'Ring the heron sanctuary today', status: 'done' }])).status, 200);
  t.equal((await post(alpha, [{ type: 'task', task_id: 'T-1', title: 'x', status: 'done', event: 'delete' }])).status, 200);
});
