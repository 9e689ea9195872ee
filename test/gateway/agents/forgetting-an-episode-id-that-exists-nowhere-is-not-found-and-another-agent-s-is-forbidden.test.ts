// memory_forget with an episode_id: an id no episode has — indexed or still waiting to be — is `not_found` (nothing to
// forget, the id is mistyped), another agent's episode stays `forbidden`, and an agent's own episode is its to forget
// as soon as its request was answered, before the index holds it (the embeddings server holds its answers here).
// Episodes are searchable by every agent, so telling the two apart shows nothing search does not.
import t from 'tap';
import { toolAs, twoAgents } from './helpers.js';

t.test('forgetting an episode id that exists nowhere is not_found and another agent’s is forbidden', async (t) => {
  const { emb, d, alpha, beta, post } = await twoAgents(t, { held: true });
  const forget = (tok: string, episode_id: string) => toolAs(d.url, tok, 'memory_forget', { episode_id });

  // indexed: alpha's task and session
  t.equal(
    (
      await post(alpha, [
        { type: 'task', task_id: 'T-1', title: 'Count the avocets on the lagoon', status: 'open' },
        { type: 'chat', session_id: 'lagoon', message_id: '1', role: 'user', text: 'How many avocets nest on the lagoon?' },
      ])
    ).status,
    200,
  );
  await d.daemon.whenCaughtUp();

  for (const id of ['task:T-404', 'correction:C-404', 'chat:no-such-session', 'chat:lagoon:404', 'chat:no-such-session:1']) {
    const r = await forget(alpha, id);
    t.equal(r.status, 404, `${id}: ${JSON.stringify(r.body)}`);
    t.equal(r.body.error?.reason, 'not_found', id);
    t.match(r.body.error?.message, `no episode has the id "${id}"`, id);
  }
  for (const id of ['task:T-1', 'chat:lagoon', 'chat:lagoon:1']) {
    const r = await forget(beta, id);
    t.equal(r.status, 403, `${id}: ${JSON.stringify(r.body)}`);
    t.equal(r.body.error?.reason, 'forbidden', id);
    t.notMatch(r.body.error?.message, 'not indexed', id);
  }

  // pending: alpha's own task and message are alpha's to forget before the index holds them; not beta's
  const release = emb!.hold();
  t.teardown(release);
  t.equal(
    (
      await post(alpha, [
        { type: 'task', task_id: 'T-2', title: 'Ring the avocet warden', status: 'open' },
        { type: 'chat', session_id: 'dunes', message_id: '1', role: 'user', text: 'Are the avocets back on the dunes?' },
      ])
    ).status,
    200,
  );
  t.equal((await forget(beta, 'task:T-2')).status, 403);
  t.equal((await forget(beta, 'chat:dunes')).status, 403);
  const ownTask = forget(alpha, 'task:T-2');
  const ownSession = forget(alpha, 'chat:dunes:1');
  release();
  const [a, b] = await Promise.all([ownTask, ownSession]);
  t.equal(a.status, 200, JSON.stringify(a.body));
  t.same(a.body.forgotten, [{ episode_id: 'task:T-2' }]);
  t.equal(b.status, 200, JSON.stringify(b.body));
  await d.daemon.whenCaughtUp();
  const found = (await d.search('avocet', { mode: 'bm25' })).results.map((r: any) => r.snippet as string).join(' | ');
  t.notMatch(found, 'warden', 'the forgotten task is not found');
  t.notMatch(found, 'dunes', 'the forgotten message is not found');
  t.match(found, 'lagoon');
});
