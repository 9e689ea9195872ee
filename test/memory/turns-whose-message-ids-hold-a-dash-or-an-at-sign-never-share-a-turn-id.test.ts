// A chat turn's id is `{session}:{first message id}-{last message id}`, and message ids are the client's. The turns
// (`a`, `b-c`) and (`a-b`, `c`) of one stretch both had the id `river:a-b-c`, so the second replaced the first in the
// index: a message the journal keeps was never found again. A message id ending `@<seq>` could likewise take the id a
// turn of another stretch gets with its stretch's seq after it. `%`, `-` and `@` inside message ids are now
// percent-escaped in turn ids: both turns are stored and found, a forget of one message rebuilds its turn alone, a
// rebuild from the journal gives the same rows, and ids of messages holding none of those characters are unchanged.
import t from 'tap';
import { chatEpisode as chat, twoAgents } from '../gateway/agents/helpers.js';
import { httpCall } from '../helpers/daemon.js';

/** How many results' snippets hold `phrase`. */
const holding = (rs: Array<{ snippet: string }>, phrase: string) => rs.filter((r) => r.snippet.includes(phrase)).length;

t.test('turns whose ids read alike with dashes or an at sign in message ids are both stored, found and forgotten apart', async (t) => {
  const { d, alpha, post } = await twoAgents(t);
  const send = async (episodes: unknown[]) => {
    const r = await post(alpha, episodes);
    t.equal(r.status, 200, JSON.stringify(r.body));
  };
  const close = async (session: string) =>
    t.equal((await httpCall(d.url, 'POST', `/v1/episodes/sessions/${session}/close`, {}, { token: alpha })).status, 200);
  const found = async (word: string): Promise<Array<{ id: string; snippet: string }>> =>
    (await d.search(word, { mode: 'bm25', filters: { source_type: 'chat' }, k: 20 })).results.map((r: any) => ({
      id: r.episode_id as string,
      snippet: r.snippet as string,
    }));

  // one stretch, two turns: (a, b-c) and (a-b, c) — the same id `river:a-b-c` before
  await send([
    chat('river', 'a', 'user', 'Where did the otter cross the river?'),
    chat('river', 'b-c', 'assistant', 'The otter crossed below the mill race.'),
    chat('river', 'a-b', 'user', 'And where does the otter sleep by day?'),
    chat('river', 'c', 'assistant', 'The otter sleeps in a holt under the ash roots.'),
  ]);
  // a session whose message ids hold none of the escaped characters keeps its turn ids
  await send([
    chat('pond', 'm1', 'user', 'Did the otter visit the pond as well?'),
    chat('pond', 'm2', 'assistant', 'Yes, the otter fished the pond.'),
  ]);
  await d.daemon.whenCaughtUp();
  const otters = await found('otter');
  t.same(
    ['mill race', 'holt under', 'fished the pond'].map((p) => holding(otters, p)),
    [1, 1, 1],
    'both turns of the stretch are found, each once',
  );
  t.equal(new Set(otters.map((r) => r.id)).size, 3, 'three turns, three ids');
  t.ok(
    otters.some((r) => r.id === 'chat:pond:m1-m2'),
    'plain message ids keep the turn id they had',
  );

  // a message id ending `@<seq>`: two stretches hold turn (p-q, r), the later one told apart by its seq; a turn of
  // that later stretch from `p` to `q-r@<seq>` read as the very same id before
  await send([
    chat('wood', 'p-q', 'user', 'Is the badger sett by the oak still used?'),
    chat('wood', 'r', 'assistant', 'The badger sett by the oak is used.'),
  ]);
  await close('wood');
  await send([
    chat('wood', 'p-q', 'user', 'Did the badger cubs come out tonight?'),
    chat('wood', 'r', 'assistant', 'Two badger cubs came out at dusk.'),
  ]);
  await d.daemon.whenCaughtUp();
  const suffixed = (await found('cubs')).map((r) => r.id);
  t.equal(suffixed.length, 1, 'the later stretch has its turn');
  const seq = /@(\d+)$/.exec(suffixed[0] ?? '')?.[1];
  t.ok(seq, `the later stretch's turn carries its seq (${suffixed[0]})`);
  await send([
    chat('wood', 'p', 'user', 'Where does the badger forage at night?'),
    chat('wood', `q-r@${seq}`, 'assistant', 'The badger forages along the hedge.'),
  ]);
  await d.daemon.whenCaughtUp();
  const badgers = await found('badger');
  t.same(
    ['sett by the oak', 'cubs came out', 'along the hedge'].map((p) => holding(badgers, p)),
    [1, 1, 1],
    'the stretch before the close, the turn with the seq and the turn ending at the message with @ are all found',
  );
  t.equal(new Set(badgers.map((r) => r.id)).size, 3, 'three turns, three ids');

  // a forget of one message rebuilds its own turn only (closed stretch: read back from the index)
  await close('river');
  const forgot = await httpCall(d.url, 'POST', '/v1/tools/memory_forget', { episode_id: 'chat:river:a' }, { token: alpha });
  t.equal(forgot.status, 200, JSON.stringify(forgot.body));
  const left = await found('otter');
  t.same(
    ['cross the river', 'mill race', 'sleep by day', 'holt under'].map((p) => holding(left, p)),
    [0, 1, 1, 1],
    'the forgotten message is gone, the message beside it and the other turn stay',
  );

  // the journal rebuilt into a new index gives the same turns (the forget left the cut of the stretch as it was)
  const before = [...(await found('otter')), ...(await found('badger'))].map((r) => r.id).sort();
  const rebuilt = await httpCall(d.url, 'POST', '/v1/reindex', {}, { token: d.token });
  t.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
  await d.daemon.whenCaughtUp();
  t.same([...(await found('otter')), ...(await found('badger'))].map((r) => r.id).sort(), before, 'a rebuild gives the same turns');
});
