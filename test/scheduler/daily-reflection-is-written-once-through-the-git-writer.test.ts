// daily_reflection end to end on the example vault: POST /v1/jobs/daily_reflection/run drafts from that day's
// meeting and daily notes (the prompt shows them), writes Reflections/<date>.md as one commit naming the skill, and a
// second run is skipped_idempotent with zero LLM calls; a day with nothing costs nothing; a malformed answer fails
// with a reason and leaves no note and no commit; GET /v1/jobs and /v1/status tell the state.
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { promptText } from '../helpers/fake-llm.js';
import { skillDaemon } from './helpers/skill-daemon.js';

t.test('a daily reflection is written once, from the day’s notes, as one commit by the skill', async (t) => {
  const s = await skillDaemon(t);
  const before = Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());
  const r = await s.run('daily_reflection', { date: '2026-11-19' });
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(r.body, {
    job: 'daily_reflection',
    outcome: 'written',
    path: 'Reflections/2026-11-19.md',
    commit: /^[0-9a-f]{40}$/,
    reason: null,
  });

  const chats = s.llm.chats();
  t.equal(chats.length, 1, 'one LLM call');
  const prompt = promptText(chats[0]!);
  t.equal(chats[0]!.body.model, 'llama3.1:8b');
  t.same(
    chats[0]!.body.messages.map((m: { role: string }) => m.role),
    ['system', 'user'],
  );
  t.match(prompt, /Thursday 2026-11-19/);
  t.match(prompt, /Meetings\/2026-11-19 Atlas migration review\.md/, 'the day’s meeting note was read');
  t.match(prompt, /Cutover date confirmed: Saturday 5 December 2026/, 'with its text');
  t.match(prompt, /Technical conversation with Jonas B\./, 'and the day’s daily note');
  t.notMatch(prompt, /Staging credentials|staging-db/i, 'a sensitive note never reaches the model');

  const note = s.note('Reflections/2026-11-19.md')!;
  t.match(note, /^---\ntype: reflection\n/);
  t.match(note, /idempotency_key: "2026-11-19"/);
  t.match(note, /autowritten_by: memvault/);
  t.match(note, /Cutover for the \[\[Atlas migration\]\] was confirmed/);
  t.match(note, /- meeting: \[\[Meetings\/2026-11-19 Atlas migration review\|/);
  t.equal(Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim()), before + 1, 'one commit');
  t.match(s.trailers('Reflections/2026-11-19.md'), {
    'Memvault-Op': 'write',
    'Memvault-Path': 'Reflections/2026-11-19.md',
    'Memvault-Agent': 'memvault-scheduler',
    'Memvault-Skill': 'daily_reflection',
  });

  const again = await s.run('daily_reflection', { date: '2026-11-19' });
  t.match(again.body, { outcome: 'skipped_idempotent', path: 'Reflections/2026-11-19.md', commit: null });
  t.equal(s.llm.chats().length, 1, 'the second run made no LLM call');
  t.equal(Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim()), before + 1, 'and no commit');

  const empty = await s.run('daily_reflection', { date: '2026-06-01' });
  t.match(empty.body, { outcome: 'skipped', reason: /^no_material/ });
  t.equal(s.llm.chats().length, 1, 'a day without notes costs no call');

  s.llm.script({ content: 'Sure! Here is the reflection you asked for: it was a good day.' });
  const bad = await s.run('daily_reflection', { date: '2026-11-18' });
  t.match(bad.body, { outcome: 'failed', path: 'Reflections/2026-11-18.md', commit: null, reason: /^llm_bad_output/ });
  t.equal(s.note('Reflections/2026-11-18.md'), null, 'no partial note');
  t.equal(Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim()), before + 1, 'no commit');

  s.llm.script({ content: JSON.stringify({ summary: 42 }) });
  const wrong = await s.run('daily_reflection', { date: '2026-11-18' });
  t.match(wrong.body, {
    outcome: 'failed',
    reason: /^llm_bad_output: the answer is not the JSON the prompt asks for \(summary: Expected string/,
  });

  const jobs = await s.d.api('GET', '/v1/jobs');
  t.equal(jobs.status, 200);
  t.match(jobs.body.llm, { state: 'ready', reason: null });
  t.match(
    jobs.body.jobs.find((j: { name: string }) => j.name === 'daily_reflection'),
    { enabled: false, state: 'disabled', schedule: '30 22 * * *', tz: 'Europe/Berlin', last_run: { trigger: 'manual', outcome: 'failed' } },
  );
  const status = await s.d.api('GET', '/v1/status');
  t.match(status.body.llm, { state: 'ready', reason: null });

  const metrics = String((await s.d.api('GET', '/metrics')).body);
  t.match(metrics, /memvault_autowrites_total\{template="daily_reflection",outcome="written"\} 1/);
  t.match(metrics, /memvault_autowrites_total\{template="daily_reflection",outcome="skipped_idempotent"\} 1/);
  t.match(metrics, /memvault_llm_calls_total\{task_type="daily_reflection",model="llama3\.1:8b",outcome="ok"\} 3/);

  t.match((await s.run('no_such_job')).status, 404);
  for (const date of ['19 Nov', 'yesterday'])
    t.match(await s.run('daily_reflection', { date }), {
      status: 400,
      body: { error: { reason: 'bad_request', message: /date must be YYYY-MM-DD/ } },
    });
  for (const date of ['2026-02-30', '2026-13-45'])
    t.match(await s.run('daily_reflection', { date }), { status: 400, body: { error: { reason: 'bad_request', message: /real day/ } } });
  t.equal((await s.d.api('POST', '/v1/jobs/daily_reflection/run', {}, null)).status, 401, 'the token is needed');
});
