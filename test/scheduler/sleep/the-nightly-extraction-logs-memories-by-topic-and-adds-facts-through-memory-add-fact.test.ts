// The sleep job end to end on the example vault, against the loopback chat-completions server: what happened since
// the last run (a conversation, a task, a fact-log line) and what is known (USER.md, current facts) are in the request
// the server recorded; the memories land in today's fact log under the job's header with their topic as category
// (one commit each); the facts go through memory_add_fact's code — a new one, a supersession that keeps history, a
// near-duplicate that is a no-op, a bad triple refused with its reason; and a second run has nothing new to read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { localDay } from '../../../actors/memory/fact-log.js';
import { git } from '../../helpers/daemon.js';
import { promptText } from '../../helpers/fake-llm.js';
import { skillDaemon } from '../helpers/skill-daemon.js';

const USER_MD = '# About me\n\n## Work\n- I lead the payments platform team at Ledgerline.\n';

const ANSWER = [
  'MEMORIES',
  '1. Maya Chen moved to Lisbon and now works remotely from there.',
  '2. The Atlas cutover rehearsal is booked for 3 December.',
  '3. Wants to read "Designing Data-Intensive Applications" again.',
  '',
  'FACTS',
  '```json',
  '[',
  '  {"subject": "Maya Chen", "predicate": "lives_in", "object": "Lisbon", "valid_from": "2026-11-20"},',
  '  {"subject": "Maya Chen", "predicate": "has_role", "object": "Staff engineer", "valid_from": "2026-11-25"},',
  '  {"subject": "Maya Chen", "predicate": "prefers", "object": "Written proposals to meetings, always"},',
  '  {"subject": "Maya Chen", "predicate": "Works At", "object": "Acme"},',
  '  {"subject": "Maya Chen", "predicate": "visiting", "valid_from": null},',
  '  {"subject": "Maya Chen", "predicate": "visiting", "object": "Porto", "valid_from": "next week", "confidence": 0.4},',
  '  "Maya likes Porto"',
  ']',
  '```',
  '',
  'TOPICS',
  '1: personal',
  '2: work',
  '3: hobbies',
].join('\n');

t.test('memories go to the fact log by topic and facts into notes, from what happened and what is known', async (t) => {
  // visiting is a temporary predicate by default (knowledge.temporary): no flag on its line
  const s = await skillDaemon(t, { files: { 'USER.md': USER_MD, 'People/Sam Okafor.md': '# Sam Okafor\n\nvisiting:: Oslo\n' } });
  const d = s.d;
  const episodes = await d.api('POST', '/v1/episodes', {
    episodes: [
      { type: 'chat', session_id: 'eve', message_id: 'q1', role: 'user', text: 'Maya told me she moved to Lisbon last week.' },
      { type: 'chat', session_id: 'eve', message_id: 'a1', role: 'assistant', text: 'Noted. Is she staying at Ledgerline?' },
      { type: 'chat', session_id: 'eve', message_id: 'q2', role: 'user', text: 'Yes, remote. Book the cutover rehearsal for 3 December.' },
      { type: 'task', task_id: 'T-9', title: 'Book the Atlas rehearsal room', status: 'done', domain: 'work' },
    ],
  });
  t.equal(episodes.status, 200, JSON.stringify(episodes.body));
  const remembered = await d.tool('memory_remember', { content: 'Owner wants to reread DDIA over the holidays', category: 'learning' });
  t.equal(remembered.status, 200, JSON.stringify(remembered.body));
  await d.daemon.whenCaughtUp();
  const before = Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());

  s.llm.script({ content: ANSWER });
  const r = await s.run('sleep');
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(r.body, { job: 'sleep', outcome: 'written', commit: /^[0-9a-f]{40}$/ });

  const chats = s.llm.chats();
  t.equal(chats.length, 1, 'one LLM call');
  t.equal(chats[0]!.body.model, 'llama3.1:8b');
  const prompt = promptText(chats[0]!);
  t.match(prompt, /### Conversation eve \(/, 'the conversation, grouped by its session');
  t.match(
    prompt,
    /user: Maya told me she moved to Lisbon last week\.\nassistant: Noted\. Is she staying at Ledgerline\?\nuser: Yes, remote\./,
  );
  t.match(prompt, /### Task T-9 \([^)]*\)\nBook the Atlas rehearsal room \(done, work\)/, 'the task');
  t.match(
    prompt,
    /### Fact log \d{4}-\d{2}-\d{2}\n- \d\d:\d\d \[learning\] Owner wants to reread DDIA over the holidays/,
    'the day’s fact log',
  );
  t.match(prompt, /I lead the payments platform team at Ledgerline\./, 'USER.md is in the prompt');
  t.match(prompt, /Maya Chen \| works_at \| Ledgerline \(from 2026-03-02\)/, 'and the current facts');
  t.notMatch(prompt, /Rotterdam payments company/, 'an ended fact is not current');
  t.match(prompt, /Sam Okafor \| visiting \| Oslo \(temporary\)/, 'a fact of a configured temporary predicate is shown temporary');
  t.match(prompt, /NO_NEW_MEMORIES/, 'the sentinel is explained');

  const { date } = localDay(Date.now());
  const log = readFileSync(path.join(s.v.dir, 'Memory/Log', `${date}.md`), 'utf8');
  t.match(log, /## \d\d:\d\d — memvault-sleep\n- \[personal\] Maya Chen moved to Lisbon and now works remotely from there\.\n/);
  t.match(log, /- \[work\] The Atlas cutover rehearsal is booked for 3 December\.\n/, 'its topic as category');
  t.match(log, /\n- Wants to read "Designing Data-Intensive Applications" again\.\n/, 'an unknown topic: no category');

  const maya = readFileSync(path.join(s.v.dir, 'People/Maya Chen.md'), 'utf8');
  t.match(maya, /- lives_in:: Lisbon \[from:: 2026-11-20\]/, 'a new fact under ## Facts');
  t.match(maya, /- has_role:: Senior backend engineer \[from:: 2026-03-02\] \[until:: 2026-11-25\]/, 'supersession ends the old role…');
  t.match(maya, /- has_role:: Staff engineer \[from:: 2026-11-25\]/, '…and records the new one');
  t.equal(maya.match(/prefers::/g)?.length, 1, 'a near-duplicate is not written twice');

  const results = r.body.results as Array<{ outcome: string; path: string | null; reason: string | null }>;
  t.equal(results.filter((x) => x.outcome === 'written' && x.path === `Memory/Log/${date}.md`).length, 3, 'three memories');
  t.match(
    results.filter((x) => x.path === 'People/Maya Chen.md'),
    [{ outcome: 'written' }, { outcome: 'written', reason: /^superseded: Maya Chen: has_role:: Staff engineer/ }],
  );
  t.ok(
    results.some((x) => x.outcome === 'skipped' && /^noop_dup: Maya Chen: prefers::/.test(x.reason ?? '')),
    'the near-duplicate is a no-op',
  );
  t.ok(
    results.some((x) => x.outcome === 'skipped' && /^fact_rejected: predicate must be snake_case/.test(x.reason ?? '')),
    'a bad predicate is refused with memory_add_fact’s own reason',
  );
  t.ok(
    results.some((x) => x.outcome === 'skipped' && /^fact_rejected: object: object is required/.test(x.reason ?? '')),
    'a missing field is named',
  );
  t.ok(
    results.some((x) => x.outcome === 'skipped' && /^fact_rejected: valid_from: valid_from must be a date/.test(x.reason ?? '')),
    'a date that is not one is named',
  );
  t.equal(results.length, 3 + 6, 'every memory and every object triple has an outcome (the bare string is a parse problem)');
  t.equal(Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim()), before + 5, 'one commit per memory and per fact written');
  t.match(
    git(s.v.dir, 'log', '-1', '--format=%B', '--', 'People/Maya Chen.md'),
    /Memvault-Agent: memvault-scheduler[\s\S]*Memvault-Skill: sleep/,
  );

  const at = await d.tool('memory_facts', { entity: 'Maya Chen', predicate: 'has_role' });
  t.same(
    at.body.facts.map((f: { object: string }) => f.object),
    ['Staff engineer'],
    'memory_facts answers the new role now',
  );
  const then = await d.tool('memory_facts', { entity: 'Maya Chen', predicate: 'has_role', at: '2026-06-01' });
  t.same(
    then.body.facts.map((f: { object: string }) => f.object),
    ['Senior backend engineer'],
    'and the old one in the past',
  );

  const again = await s.run('sleep');
  t.match(again.body, { outcome: 'skipped', reason: /^no_material/ }, 'its own memories are not news to it');
  t.equal(s.llm.chats().length, 1, 'no second LLM call');
  const metrics = String((await d.api('GET', '/metrics')).body);
  t.match(metrics, /memvault_llm_calls_total\{task_type="sleep",model="llama3\.1:8b",outcome="ok"\} 1/, 'metrics from the LLM client');
  const inv = readFileSync(path.join(s.d.cfg.data_dir, 'invocations', `${new Date().toISOString().slice(0, 10)}.jsonl`), 'utf8');
  t.match(inv, /"task_type":"sleep"/, 'and the invocation log');
});

t.test('at autonomy low it writes memories only: no fact goes into a note', async (t) => {
  const s = await skillDaemon(t, { skills: { sleep: '{ enabled: false, autonomy: low }' } });
  const post = await s.d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'chat', session_id: 'low', message_id: 'q1', role: 'user', text: 'Tom now lives in Porto.' }],
  });
  t.equal(post.status, 200);
  const tom = readFileSync(path.join(s.v.dir, 'People/Tom Okafor.md'), 'utf8');
  s.llm.script({
    content:
      'MEMORIES\n1. Tom Okafor moved to Porto.\nFACTS\n[{"subject": "Tom Okafor", "predicate": "lives_in", "object": "Porto"}]\nTOPICS\n1: personal\n',
  });
  const r = await s.run('sleep');
  t.match(r.body, { outcome: 'written', path: /^Memory\/Log\/\d{4}-\d{2}-\d{2}\.md$/ });
  t.equal(r.body.results.length, 1, 'one memory, no fact');
  t.equal(readFileSync(path.join(s.v.dir, 'People/Tom Okafor.md'), 'utf8'), tom, 'the person’s note is untouched');
  t.match(readFileSync(path.join(s.v.dir, r.body.path), 'utf8'), /- \[personal\] Tom Okafor moved to Porto\./);
});
