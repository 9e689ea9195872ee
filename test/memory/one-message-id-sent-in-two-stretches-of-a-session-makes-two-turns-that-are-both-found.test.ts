// A chat turn's id is `{session}:{first message id}-{last message id}`. Two stretches of one session (a close between
// them) may hold a message with the same id: another agent's, once the first was a message the index never kept, or
// the same agent's sent again. Their turns then have the same id, and one overwrote the other in the index, so a
// search found only one of them though the journal keeps both. A turn whose id another stretch of its session holds
// now gets the id with its stretch's journal seq after it (`walk:2-2@17`): both are found — live, after `index_roles`
// is widened and the index rebuilt, and after a replay over the rebuilt index, which gives the same rows. A session
// that never had such a duplicate keeps its ids as they were.
import path from 'node:path';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { agent, chatEpisode as chat } from '../gateway/agents/helpers.js';
import { httpCall, makeVault, startDaemon, testConfig, type Running } from '../helpers/daemon.js';

function chatRows(dataDir: string): Array<{ id: string; hash: string; body: string }> {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT d.source_id AS id, d.content_hash AS hash,
           (SELECT group_concat(content, '|') FROM (SELECT content FROM memory_chunks WHERE document_id = d.id ORDER BY seq)) AS body
         FROM memory_documents d WHERE d.source_type = 'chat' AND d.deleted_at IS NULL ORDER BY 1`,
      )
      .all() as Array<{ id: string; hash: string; body: string }>;
  } finally {
    db.close();
  }
}

/** A distinctive phrase of each message holding "kingfisher": alpha's tool line, beta's, alpha's two with id 1. */
const PHRASES = ['hide list: north', 'Beta asks whether', 'dive at the weir', 'second'];
/** How many results' snippets hold `phrase`. */
const holding = (rs: Array<{ snippet: string }>, phrase: string) => rs.filter((r) => r.snippet.includes(phrase)).length;

const WIDE = 'episodes:\n  chat:\n    index_roles: [user, assistant, tool]\n';

t.test('two messages with one id in two stretches of a session are both found, live and after a rebuild', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  let cfg = testConfig(v.dir);
  let d: Running = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const alpha = agent(cfg.data_dir, 'alpha', { scope: 'write' });
  const beta = agent(cfg.data_dir, 'beta', { scope: 'write' });
  const post = async (tok: string, episodes: unknown[]) => {
    const r = await httpCall(d.url, 'POST', '/v1/episodes', { episodes }, { token: tok });
    t.equal(r.status, 200, JSON.stringify(r.body));
  };
  const close = async (tok: string, session: string) =>
    t.equal((await httpCall(d.url, 'POST', `/v1/episodes/sessions/${session}/close`, {}, { token: tok })).status, 200);
  const found = async (word: string): Promise<Array<{ id: string; snippet: string }>> =>
    (await d.search(word, { mode: 'bm25', filters: { source_type: 'chat' }, k: 20 })).results.map((r: any) => ({
      id: r.episode_id as string,
      snippet: r.snippet as string,
    }));

  // alpha's tool message (not indexed under the default roles) in a stretch of its own, closed
  await post(alpha, [chat('walk', '2', 'tool', 'Alpha kingfisher hide list: north, reed bed, weir')]);
  await close(alpha, 'walk');
  // another session, two stretches, no message id twice: its ids must stay as they were
  await post(alpha, [chat('pond', 'a', 'user', 'Where do the herons nest this spring?')]);
  await close(alpha, 'pond');
  await post(alpha, [chat('pond', 'b', 'user', 'The herons moved to the alder grove.')]);
  await close(alpha, 'pond');
  // more of alpha's work: the index's checkpoint moves past the closed stretch, so beta may send id 2
  await post(alpha, [{ type: 'task', task_id: 'T-1', title: 'Count the kingfishers', status: 'open' }]);
  await d.daemon.whenCaughtUp();
  await post(beta, [chat('walk', '2', 'user', 'Beta asks whether the kingfisher hide at the weir is open')]);
  await close(beta, 'walk');
  // the same agent's message id again in a third stretch, with other words: the first must not be overwritten
  await post(alpha, [chat('walk', '1', 'user', 'Alpha saw a kingfisher dive at the weir this morning')]);
  await close(alpha, 'walk');
  await post(alpha, [chat('walk', '1', 'user', 'Alpha saw a second kingfisher at the reed bed later')]);
  await d.daemon.whenCaughtUp();

  const live = await found('kingfisher');
  t.same(
    PHRASES.map((p) => holding(live, p)),
    [0, 1, 1, 1],
    'live: every indexed message is found, each in its own turn (the tool line is not indexed)',
  );
  const ids = live.map((r) => r.id);
  t.ok(ids.includes('chat:walk:1-1'), 'the first stretch holding an id keeps the plain turn id');
  t.match(
    ids.filter((i) => i.startsWith('chat:walk:1-1@')),
    [/^chat:walk:1-1@\d+$/],
    'the later one is told apart by its stretch',
  );
  t.same(
    (await found('herons')).map((r) => r.id).sort(),
    ['chat:pond:a-a', 'chat:pond:b-b'],
    'a session without a duplicate id keeps its turn ids',
  );

  // a message forgotten in a closed stretch: its turn, rebuilt without it, would take a later stretch's turn id
  await post(alpha, [
    chat('reed', 'x', 'user', 'Alpha counted grebes on the reed bed pool'),
    chat('reed', 'y', 'user', 'Alpha also counted grebes near the sluice'),
  ]);
  await close(alpha, 'reed');
  await post(alpha, [chat('reed', 'x', 'user', 'Alpha heard grebes calling after dusk')]);
  await d.daemon.whenCaughtUp();
  t.same((await found('grebes')).map((r) => r.id).sort(), ['chat:reed:x-x', 'chat:reed:x-y'], 'two stretches, two turns');
  const forgot = await httpCall(d.url, 'POST', '/v1/tools/memory_forget', { episode_id: 'chat:reed:y' }, { token: alpha });
  t.equal(forgot.status, 200, JSON.stringify(forgot.body));
  const grebes = await found('grebes');
  t.same(
    ['reed bed pool', 'near the sluice', 'after dusk'].map((p) => holding(grebes, p)),
    [1, 0, 1],
    'the forgotten message is gone; the later stretch keeps its turn, the rebuilt one has its own id',
  );
  t.match(grebes.map((r) => r.id).sort(), ['chat:reed:x-x', /^chat:reed:x-x@\d+$/]);

  // index_roles widened, the index rebuilt from the journal: alpha's tool message is a turn too, and beta's is kept
  await d.stop();
  cfg = testConfig(v.dir, WIDE);
  d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const rebuilt = await httpCall(d.url, 'POST', '/v1/reindex', {}, { token: d.token });
  t.equal(rebuilt.status, 200, JSON.stringify(rebuilt.body));
  await d.daemon.whenCaughtUp();
  const after = await found('kingfisher');
  t.same(
    PHRASES.map((p) => holding(after, p)),
    [1, 1, 1, 1],
    "after the rebuild: alpha's tool message and beta's message with the same id are both found",
  );
  t.equal(new Set(after.map((r) => r.id)).size, after.length, 'four turns, four ids');
  t.same(
    (await found('herons')).map((r) => r.id).sort(),
    ['chat:pond:a-a', 'chat:pond:b-b'],
    'the session without a duplicate keeps its ids after the rebuild',
  );

  // a replay of the whole journal over the rebuilt index upserts the same rows
  const before = chatRows(cfg.data_dir);
  const replayed = await httpCall(d.url, 'POST', '/v1/reindex', {}, { token: d.token });
  t.equal(replayed.status, 200);
  await d.daemon.whenCaughtUp();
  t.same(chatRows(cfg.data_dir), before, 'a second rebuild gives the same rows');
  await d.stop();
  d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  t.same(chatRows(cfg.data_dir), before, 'a restart replaying over the index leaves the same rows');
});
