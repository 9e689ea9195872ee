// An episode is the agent's from the moment the daemon accepts it, not from when it reaches the index: while it waits
// to be embedded (the embeddings server holds its answers here), another agent sending the same task id or chat message
// id is refused `forbidden` as for an indexed one (also after the memory actor restarts), two agents racing for a new
// id get it for one of them only, and the agent that sent it still updates it.
import t from 'tap';
import { nextRestart } from '../../helpers/daemon.js';
import { twoAgents } from './helpers.js';

t.test("an agent cannot replace another agent's episode before it is indexed", async (t) => {
  const { emb, d, alpha, beta, post } = await twoAgents(t, { held: true });
  const reasons = (body: any) => (body.rejected ?? []).map((r: { i: number; reason: string }) => [r.i, r.reason]);

  const release = emb!.hold(); // nothing alpha sends reaches the index until released
  t.teardown(release);
  const first = await post(alpha, [
    { type: 'task', task_id: 'T-9', title: 'Order the kingfisher nest boxes', status: 'open' },
    { type: 'chat', session_id: 'walk', message_id: '1', role: 'user', text: 'Which kingfisher hide opens at dawn?' },
    { type: 'chat', session_id: 'walk', message_id: '2', role: 'tool', text: 'hide list v1' }, // a role never indexed
  ]);
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.equal(first.body.index.episodes.pending > 0, true, 'still pending: the embeddings server holds its answers');

  const takeover = await post(beta, [
    { type: 'task', task_id: 'T-9', title: 'Hijacked kingfisher title', status: 'open' },
    { type: 'task', task_id: 'T-9', title: 'x', status: 'open', event: 'delete' },
    { type: 'chat', session_id: 'walk', message_id: '1', role: 'user', text: 'Hijacked kingfisher message' },
    { type: 'chat', session_id: 'walk', message_id: '2', role: 'user', text: 'Hijacked kingfisher tool line' },
  ]);
  t.equal(takeover.status, 403, JSON.stringify(takeover.body));
  t.same(reasons(takeover.body), [
    [0, 'forbidden'],
    [1, 'forbidden'],
    [2, 'forbidden'],
    [3, 'forbidden'],
  ]);
  t.match(takeover.body.rejected[0].message, /task:T-9 was recorded by another agent/);
  t.match(takeover.body.rejected[3].message, /chat:walk:2 was recorded by another agent/);

  // two agents sending one new id at once: one of them has it, the other is refused
  const race = await Promise.all([
    post(alpha, [{ type: 'task', task_id: 'T-10', title: 'Alpha kingfisher survey', status: 'open' }]),
    post(beta, [{ type: 'task', task_id: 'T-10', title: 'Beta kingfisher survey', status: 'open' }]),
  ]);
  t.same(race.map((r) => r.status).sort(), [200, 403], JSON.stringify(race.map((r) => r.body)));
  const winner = race[0]!.status === 200 ? 'Alpha' : 'Beta';

  // a restart of the memory actor does not free them: it reads who recorded what back from the journal
  const restarted = nextRestart(d.daemon, 'memory');
  void d.daemon.handles.memory!.crash('test: injected crash');
  await restarted;
  const again = await post(beta, [{ type: 'task', task_id: 'T-9', title: 'Hijacked kingfisher title', status: 'open' }]);
  t.equal(again.status, 403, `after a restart: ${JSON.stringify(again.body)}`);

  // alpha still updates its own pending task
  const own = await post(alpha, [{ type: 'task', task_id: 'T-9', title: 'Order the kingfisher nest boxes today', status: 'open' }]);
  t.equal(own.status, 200, JSON.stringify(own.body));

  release();
  await d.daemon.whenCaughtUp();
  const found = async (type: string) =>
    (await d.search('kingfisher', { mode: 'bm25', filters: { source_type: type } })).results
      .map((r: any) => r.snippet as string)
      .join(' | ');
  const tasks = await found('task');
  t.match(tasks, 'Order the kingfisher nest boxes today', "alpha's task stands, as alpha last sent it");
  t.notMatch(tasks, 'Hijacked');
  t.match(tasks, `${winner} kingfisher survey`);
  t.notMatch(tasks, `${winner === 'Alpha' ? 'Beta' : 'Alpha'} kingfisher survey`);
  const chats = await found('chat');
  t.match(chats, 'Which kingfisher hide opens at dawn?');
  t.notMatch(chats, 'Hijacked');
});
