// A turn is forgotten by the id its search result carries (`chat:<session>:<first>-<last>`): one tombstone per message
// of the turn. In a closed stretch each turn is read back from the index and rebuilt without what was forgotten, and
// the tombstones of one forget are handled together: each rebuilt the turn from the same row without its own message,
// so every other message of the turn came back, each in a turn of its own, though the forget answered 200. They are
// now one set per session: the turn is gone, the turn beside it stays, and a rebuild from the journal agrees.
import t from 'tap';
import { chatEpisode as chat, twoAgents } from '../gateway/agents/helpers.js';
import { httpCall } from '../helpers/daemon.js';

t.test('forgetting a turn of a closed stretch by its id forgets every message of it', async (t) => {
  const { d, alpha, post } = await twoAgents(t);
  const found = async (word: string): Promise<Array<{ id: string; snippet: string }>> =>
    (await d.search(word, { mode: 'bm25', filters: { source_type: 'chat' }, k: 20 })).results.map((r: any) => ({
      id: r.episode_id as string,
      snippet: r.snippet as string,
    }));
  const sent = await post(alpha, [
    chat('lake', 'm1', 'user', 'How many swans nest on the lake this year?'),
    chat('lake', 'm2', 'assistant', 'Three pairs of swans nest by the boathouse.'),
    chat('lake', 'm3', 'user', 'Are the swans still fed at the jetty?'),
    chat('lake', 'm4', 'assistant', 'The swans are fed at the jetty every morning.'),
  ]);
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.equal((await httpCall(d.url, 'POST', '/v1/episodes/sessions/lake/close', {}, { token: alpha })).status, 200);
  await d.daemon.whenCaughtUp();
  t.same((await found('swans')).map((r) => r.id).sort(), ['chat:lake:m1-m2', 'chat:lake:m3-m4'], 'two turns');

  const forgot = await httpCall(d.url, 'POST', '/v1/tools/memory_forget', { episode_id: 'chat:lake:m1-m2' }, { token: alpha });
  t.equal(forgot.status, 200, JSON.stringify(forgot.body));
  await d.daemon.whenCaughtUp();
  const left = await found('swans');
  t.same(
    left.map((r) => r.id),
    ['chat:lake:m3-m4'],
    `only the other turn is found (${left.map((r) => r.snippet).join(' | ')})`,
  );

  const rebuilt = await httpCall(d.url, 'POST', '/v1/reindex', {}, { token: d.token });
  t.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
  await d.daemon.whenCaughtUp();
  t.same(
    (await found('swans')).map((r) => r.id),
    ['chat:lake:m3-m4'],
    'a rebuild from the journal finds the same',
  );
});
