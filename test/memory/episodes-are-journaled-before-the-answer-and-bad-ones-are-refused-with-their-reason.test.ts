// POST /v1/episodes on a real daemon: good episodes are in the journal (with the agent) when the answer comes and are
// then searchable by source type; each bad one is refused with its stable reason without sinking the others; whole
// requests that are not episodes (invalid UTF-8, 10,000 items, no token) are refused and journal nothing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, httpCall } from '../helpers/daemon.js';

function journalLines(dataDir: string): Array<Record<string, any>> {
  const dir = path.join(dataDir, 'episodes');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>),
  );
}

t.test('episodes over HTTP', async (t) => {
  const { d } = await daemonOn(
    t,
    { 'Inbox/garden.md': '# Garden\n\nThe herons came back to the pond this week.\n' },
    'episodes:\n  max_text_bytes: 4096\n',
  );
  const post = (body: unknown, agent = 'agent-7') => httpCall(d.url, 'POST', '/v1/episodes', body, { token: d.token, agent });

  await t.test('good episodes are journaled with the agent before the answer; bad ones get their own reason', async (t) => {
    const r = await post({
      episodes: [
        {
          type: 'chat',
          session_id: 'trip',
          message_id: 'm1',
          role: 'user',
          text: 'Which city should host the spring offsite?',
          at: '2026-03-02T09:00:00Z',
        },
        {
          type: 'chat',
          session_id: 'trip',
          message_id: 'm2',
          role: 'assistant',
          text: 'Lisbon: warm in April and cheap to fly to.',
          at: '2026-03-02T09:00:05Z',
        },
        { type: 'task', task_id: 'T-9', title: 'Book the offsite venue', status: 'open', priority: 2, deadline: '2026-03-20' },
        {
          type: 'correction',
          correction_id: 'c-1',
          field: 'city',
          original: 'Lisbon',
          corrected: 'Porto',
          input: 'offsite city',
          task_type: 'extraction',
        },
        { type: 'email', text: 'hello' },
        { type: 'chat', session_id: 'trip', message_id: 'm3', role: 'user' },
        { type: 'task', task_id: 'T-10', title: 'No status here' },
        { type: 'chat', session_id: 'trip', message_id: 'm4', role: 'user', text: 'a NUL \u0000 inside' },
        { type: 'chat', session_id: 'trip', message_id: 'm5', role: 'user', text: 'x'.repeat(4097) },
        { type: 'chat', session_id: 'trip', message_id: 'm6', role: 'user', text: 'broken \ud800 text' },
        { type: 'chat', session_id: 'a:b', message_id: 'm7', role: 'user', text: 'a session id with a colon' },
        { type: 'chat', session_id: 'trip', message_id: 'm8', role: 'narrator', text: 'who is speaking here?' },
        'not an object',
        { type: 'task', task_id: 'T-11', title: 'When was this?', status: 'open', at: 'yesterday' },
      ],
    });
    t.equal(r.status, 200);
    t.equal(r.body.accepted, 4);
    t.same(r.body.episode_ids, ['chat:trip:m1', 'chat:trip:m2', 'task:T-9', 'correction:c-1']);
    t.same(
      r.body.rejected.map((x: any) => [x.i, x.reason]),
      [
        [4, 'bad_request'],
        [5, 'bad_request'],
        [6, 'bad_request'],
        [7, 'invalid_content'],
        [8, 'too_large'],
        [9, 'invalid_content'],
        [10, 'bad_request'],
        [11, 'bad_request'],
        [12, 'bad_request'],
        [13, 'bad_request'],
      ],
    );
    t.match(r.body.rejected[0].message, /unknown type "email"/);
    t.match(r.body.rejected[1].message, /text is required/);
    t.match(r.body.rejected[2].message, /status is required/);
    t.match(r.body.rejected[4].message, /4097 bytes, over the 4096-byte limit \(episodes\.max_text_bytes\)/);
    t.match(r.body.rejected[6].message, /must not hold ':'/);
    t.match(r.body.rejected.at(-1).message, /at must be epoch ms, an ISO 8601 date-time with a zone .* or a date/);
    const close = await d.api('POST', '/v1/episodes/sessions/a%3Ab/close');
    t.match(close, { status: 400, body: { error: { reason: 'bad_request', message: /must not hold ':'/ } } }, 'no session has such an id');
    const lines = journalLines(d.cfg.data_dir);
    t.same(
      lines.map((l) => [l.ep.type, l.agent]),
      [
        ['chat', 'agent-7'],
        ['chat', 'agent-7'],
        ['task', 'agent-7'],
        ['correction', 'agent-7'],
      ],
      'in the journal when the answer came, with the agent that sent them',
    );
    t.equal(lines[0]!.at, Date.parse('2026-03-02T09:00:00Z'), 'the episode time is kept as an instant');
  });

  await t.test('requests that are not a list of 1 to 1,000 episodes are refused whole and journal nothing', async (t) => {
    const before = journalLines(d.cfg.data_dir).length;
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      type: 'chat',
      session_id: 'bulk',
      message_id: String(i),
      role: 'user',
      text: 'hello there friends',
    }));
    const big = await post({ episodes: many });
    t.equal(big.status, 413);
    t.equal(big.body.error.reason, 'too_large');
    t.match(big.body.error.message, /10000 episodes in one request; at most 1000/);
    const bytes = Buffer.concat([
      Buffer.from('{"episodes":[{"type":"chat","session_id":"s","message_id":"1","role":"user","text":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}]}'),
    ]);
    const r = await fetch(`${d.url}/v1/episodes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
      body: bytes,
    });
    t.equal(r.status, 400);
    t.equal(((await r.json()) as any).error.reason, 'bad_request', 'invalid UTF-8 is refused, never stored with replacement characters');
    for (const body of [{}, { episodes: [] }, { episodes: 'x' }, [1], { episodes: [{ type: 'chat' }], extra: 1 }]) {
      const x = await post(body);
      t.equal(x.status, 400, `${JSON.stringify(body)} → 400`);
      t.equal(x.body.error.reason, 'bad_request');
    }
    const allBad = await post({ episodes: [{ type: 'task', task_id: 'x', title: 't', status: 's', text: 'no such field' }] });
    t.equal(allBad.status, 400);
    t.equal(allBad.body.accepted, 0);
    t.match(allBad.body.rejected[0].message, /Unrecognized key/);
    const noToken = await httpCall(
      d.url,
      'POST',
      '/v1/episodes',
      { episodes: [{ type: 'chat', session_id: 's', message_id: '1', role: 'user', text: 'without a token' }] },
      { token: null },
    );
    t.equal(noToken.status, 401);
    t.equal(journalLines(d.cfg.data_dir).length, before, 'nothing was journaled');
  });

  await t.test('episodes are searchable, filtered by source type, and carry their ids and time instead of a path', async (t) => {
    await d.daemon.whenCaughtUp();
    const by = async (source_type: string) => (await d.search('offsite', { mode: 'bm25', filters: { source_type } })).results;
    const chat = await by('chat');
    t.same(
      chat.map((x: any) => [x.source_type, x.episode_id, x.session_id, x.at, x.path]),
      [['chat', 'chat:trip:m1-m2', 'trip', '2026-03-02T09:00:05.000Z', undefined]],
    );
    t.match(chat[0].snippet, /User: Which city should host the spring offsite\? Assistant: Lisbon/);
    t.same(
      (await by('task')).map((x: any) => [x.episode_id, x.task_id, x.title]),
      [['task:T-9', 'T-9', 'Book the offsite venue']],
    );
    t.same(
      (await by('correction')).map((x: any) => [x.episode_id, x.correction_id]),
      [['correction:c-1', 'c-1']],
    );
    t.same(await by('vault'), [], 'no note says offsite');
    const all = await d.search('spring offsite city venue');
    t.same(
      new Set(all.results.map((x: any) => x.source_type)),
      new Set(['chat', 'task', 'correction', 'vault']),
      'unfiltered search covers every source',
    );
    const bad = await d.api('POST', '/v1/search', { query: 'x', filters: { source_type: 'email' } });
    t.equal(bad.status, 400);
    t.match(bad.body.error.message, /source_type must be one of vault, chat, task, correction, fact/);
  });

  await t.test('status counts documents by source and shows nothing pending; metrics count what came in and was refused', async (t) => {
    const s = (await d.api('GET', '/v1/status')).body.index;
    t.same(s.sources, { vault: 1, chat: 1, task: 1, correction: 1 });
    t.equal(s.episodes.pending, 0);
    t.equal(s.episodes.oldest_pending_age_ms, null);
    const m = (await d.api('GET', '/metrics')).body as string;
    t.match(m, /memvault_episodes_ingested_total\{source_type="chat"\} 2/);
    t.match(m, /memvault_episodes_rejected_total\{source_type="unknown",reason="bad_request"\} \d/);
    t.match(m, /memvault_episodes_rejected_total\{source_type="chat",reason="too_large"\} 1/);
    t.match(m, /memvault_episode_searchable_seconds_count\{source_type="task"\} 1/);
  });
});
