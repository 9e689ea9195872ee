// USER.md curation end to end: a real daemon, a real git vault, the model a loopback chat-completions server with
// scripted answers. An applied run is one commit of USER.md and its audit line (every reject reason in it); a no-op
// run leaves USER.md byte-identical and makes no commit; a malformed answer changes nothing but the audit file; a
// fenced answer is read; agents' vault_write stays refused on both files; curation off → no LLM call at all.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { promptText } from '../helpers/fake-llm.js';
import { skillDaemon } from '../scheduler/helpers/skill-daemon.js';

const USER = [
  'Priya, product lead at Ledgerline.',
  '',
  '## Preferences',
  'Writes in British English.',
  '- Short answers, bullet points.',
  '',
  '### Archive',
  '- Old: long reports',
  '',
  '## Work',
  '- Owns pricing',
  '- Runs the Atlas migration',
  '',
].join('\n');

const LOG = [
  '# 2026-11-25',
  '',
  '## 09:10 — assistant',
  '- [personal] Priya prefers no meetings before 11:00',
  '- [work] Priya handed pricing over to Tom',
  '- [work] Priya likes Gantt charts',
  '',
].join('\n');
const TOMBS = `${JSON.stringify({ fact: 'Priya likes Gantt charts', at: '2026-11-25T10:00:00.000Z', agent: 'assistant' })}\n`;

const files = { 'USER.md': USER, 'Memory/Log/2026-11-25.md': LOG, 'Memory/tombstones.jsonl': TOMBS };
const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim());

/** Every reject reason, one op each, in the order the audit line lists them. */
const REJECTS: Array<[unknown, string]> = [
  [{ op: 'rename', heading: 'Work' }, 'unknown_op'],
  [{ heading: 'Work' }, 'missing_field'],
  [{ op: 'append', heading: 'Hobbies', line: '- Climbing' }, 'heading_missing'],
  [{ op: 'add_heading', heading: 'work', lines: ['- x'] }, 'heading_exists'],
  [{ op: 'append', heading: 'Work', line: '  ' }, 'empty_line'],
  [{ op: 'add_heading', heading: 'New', lines: ['', ' '] }, 'empty_lines'],
  [{ op: 'append', heading: ' ', line: '- x' }, 'empty_heading'],
  [{ op: 'remove', heading: 'Work', match: '' }, 'empty_match'],
  [{ op: 'append', heading: 'Work', line: '# Owner of everything' }, 'line_starts_with_hash'],
  [{ op: 'add_heading', heading: '## Family', lines: ['- x'] }, 'heading_starts_with_hash'],
  [{ op: 'remove', heading: 'Preferences', match: 's' }, 'multiple_matches'],
];

t.test('an applied run is one commit of USER.md and its audit line, and a no-op run writes nothing', async (t) => {
  const s = await skillDaemon(t, { extra: 'curation:\n  enabled: true\n', files });
  const audit = () => s.note('USER.md.audit.jsonl');
  const before = commits(s.v.dir);

  const applied = [
    { op: 'append', heading: 'Preferences', line: '- No meetings before 11:00' },
    { op: 'remove', heading: 'Work', match: 'pricing' },
    { op: 'append', heading: 'Preferences', line: '* short answers, BULLET points.' }, // a duplicate
    { op: 'remove', heading: 'Preferences', match: 'long reports' }, // only in the ### region: no match
  ];
  s.llm.script({
    content: `Here are my edits:\n\`\`\`json\n${JSON.stringify({ ops: [...applied, ...REJECTS.map(([op]) => op)] })}\n\`\`\`\n`,
  });
  const r = await s.run('curation', { date: '2026-11-25' });
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(r.body, { job: 'curation', outcome: 'written', path: 'USER.md', commit: /^[0-9a-f]{40}$/, reason: null });
  t.same(
    r.body.results.map((x: { reason: string }) => x.reason),
    ['applied', 'applied', 'noop_dup', 'noop_no_match', ...REJECTS.map(([, why]) => `rejected: ${why}`)],
  );

  const chats = s.llm.chats();
  t.equal(chats.length, 1, 'one LLM call');
  const prompt = promptText(chats[0]!);
  t.match(prompt, /Keep the vault owner's USER\.md current/);
  t.ok(prompt.includes('- Short answers, bullet points.\n\n### Archive'), 'USER.md as it is now is in the prompt');
  t.match(prompt, /- 09:10 \[personal\] Priya prefers no meetings before 11:00/, 'the fact log of the day');
  t.match(prompt, /Forgotten: no longer true[\s\S]*- Priya likes Gantt charts/, 'a forgotten fact is listed as no longer true');
  t.notMatch(prompt, /- 09:10 \[work\] Priya likes Gantt charts/, 'and not as a fact');

  t.equal(
    s.note('USER.md'),
    [
      'Priya, product lead at Ledgerline.',
      '',
      '## Preferences',
      'Writes in British English.',
      '- Short answers, bullet points.',
      '- No meetings before 11:00',
      '',
      '### Archive',
      '- Old: long reports',
      '',
      '## Work',
      '- Runs the Atlas migration',
      '',
    ].join('\n'),
  );
  t.equal(commits(s.v.dir), before + 1, 'exactly one commit');
  t.equal(git(s.v.dir, 'log', '-1', '--format=%H').trim(), r.body.commit);
  t.same(git(s.v.dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort(), ['USER.md', 'USER.md.audit.jsonl']);
  t.match(s.trailers('USER.md'), { 'Memvault-Agent': 'memvault-curation', 'Memvault-Skill': 'curation', 'Memvault-Op': 'write' });
  t.equal(git(s.v.dir, 'status', '--porcelain', '--', 'USER.md', 'USER.md.audit.jsonl'), '', 'nothing left uncommitted');

  const lines = audit()!.trimEnd().split('\n');
  t.equal(lines.length, 1, 'one audit line for the run');
  const a = JSON.parse(lines[0]!);
  t.match(a.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  t.equal(a.written, true);
  t.same(a.ops.slice(0, 4), [
    { op: applied[0], outcome: 'applied' },
    { op: applied[1], outcome: 'applied' },
    { op: applied[2], outcome: 'noop_dup' },
    { op: applied[3], outcome: 'noop_no_match' },
  ]);
  t.same(
    a.ops.slice(4),
    REJECTS.map(([op, reason]) => ({ op, outcome: 'rejected', reason })),
    'every reject reason, with the op as the model sent it',
  );

  // a no-op run: the file byte-identical, no commit, no audit line
  const userBytes = readFileSync(path.join(s.v.dir, 'USER.md'));
  const auditBefore = audit();
  const head = commits(s.v.dir);
  s.llm.script({
    content: JSON.stringify({
      ops: [
        { op: 'append', heading: 'preferences', line: '- no meetings before 11:00  ' },
        { op: 'remove', heading: 'Work', match: 'pricing' },
      ],
    }),
  });
  const noop = await s.run('curation', { date: '2026-11-25' });
  t.match(noop.body, { outcome: 'skipped', commit: null, reason: /^no_change/ });
  t.same(
    noop.body.results.map((x: { reason: string }) => x.reason),
    ['noop_dup', 'noop_no_match'],
  );
  t.ok(readFileSync(path.join(s.v.dir, 'USER.md')).equals(userBytes), 'USER.md byte-identical');
  t.equal(audit(), auditBefore, 'no audit line');
  t.equal(commits(s.v.dir), head, 'no commit');

  // an answer that is not JSON: USER.md untouched, the refusal audited (one commit of the audit file alone)
  s.llm.script({ content: 'I would add a line saying Priya likes tea.' });
  const bad = await s.run('curation', { date: '2026-11-25' });
  t.match(bad.body, { outcome: 'failed', reason: /^llm_bad_output: not_json/ });
  t.ok(readFileSync(path.join(s.v.dir, 'USER.md')).equals(userBytes), 'USER.md untouched');
  const last = JSON.parse(audit()!.trimEnd().split('\n').pop()!);
  t.same(Object.keys(last).sort(), ['answer', 'at', 'rejected', 'written']);
  t.match(last, { written: false, rejected: 'not_json', answer: 'I would add a line saying Priya likes tea.' });
  t.equal(commits(s.v.dir), head + 1);
  t.same(git(s.v.dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n'), ['USER.md.audit.jsonl']);

  // {"op"...} without "ops" is not the answer asked for either
  s.llm.script({ content: '{"op": "append", "heading": "Work", "line": "- x"}' });
  t.match((await s.run('curation', { date: '2026-11-25' })).body, { outcome: 'failed', reason: /not_json/ });

  const auditAfterBad = audit();
  t.equal(auditAfterBad!.trimEnd().split('\n').length, 3, 'each refused answer has its audit line');

  // a day without fact log entries costs no call
  const calls = s.llm.chats().length;
  const empty = await s.run('curation', { date: '2026-06-01' });
  t.match(empty.body, { outcome: 'skipped', reason: /^no_material/ }, JSON.stringify(empty.body));
  t.equal(s.llm.chats().length, calls, 'no LLM call without material');

  // agents still cannot write either file
  const w = await s.d.tool('vault_write', { path: 'USER.md', content: '- hijacked\n' }, 'some-agent');
  t.match(w, {
    status: 403,
    body: { error: { reason: 'reserved', message: /only memvault's own jobs write .*USER\.md and USER\.md\.audit\.jsonl/ } },
  });
  const j = await s.d.tool('vault_write', { path: 'USER.md.audit.jsonl', content: '{}\n' }, 'some-agent');
  t.match(j, { status: 400, body: { error: { reason: 'not_markdown' } } });
  t.equal(audit(), auditAfterBad);
  t.ok(readFileSync(path.join(s.v.dir, 'USER.md')).equals(userBytes));

  // a person edits USER.md while the model thinks: the run's write is refused, their text stays
  const theirs = `${userBytes.toString('utf8')}- Edited by hand\n`;
  s.llm.respond(() => {
    writeFileSync(path.join(s.v.dir, 'USER.md'), theirs);
    return { content: JSON.stringify({ ops: [{ op: 'append', heading: 'Work', line: '- Leads hiring' }] }) };
  });
  const raced = await s.run('curation', { date: '2026-11-25' });
  t.match(raced.body, { outcome: 'failed', commit: null, reason: /^write_conflict/ });
  t.equal(s.note('USER.md'), theirs, 'the person’s edit is kept');
  t.equal(audit(), auditAfterBad, 'no audit line for a write that did not happen');

  // a USER.md marked sensitive never reaches the model
  writeFileSync(path.join(s.v.dir, 'USER.md'), `---\nsensitive: true\n---\n${theirs}`);
  const calls2 = s.llm.chats().length;
  const secret = await s.run('curation', { date: '2026-11-25' });
  t.match(secret.body, { outcome: 'skipped', commit: null, reason: /^sensitive: / });
  t.equal(s.llm.chats().length, calls2, 'no LLM call');

  const jobs = await s.d.api('GET', '/v1/jobs');
  t.match(
    jobs.body.jobs.find((j: { name: string }) => j.name === 'curation'),
    { enabled: true, schedule: '30 4 * * *', tz: 'Europe/Berlin', last_run: { trigger: 'manual' } },
  );
});

t.test('with curation off (the default) no run reaches the model, not even one asked for', async (t) => {
  const s = await skillDaemon(t, { files });
  const before = commits(s.v.dir);
  const r = await s.run('curation', { date: '2026-11-25' });
  t.equal(r.status, 200);
  t.match(r.body, { job: 'curation', outcome: 'skipped', commit: null, reason: /^curation_disabled/ });
  t.equal(s.llm.chats().length, 0, 'no LLM call');
  t.equal(s.note('USER.md'), USER);
  t.equal(s.note('USER.md.audit.jsonl'), null);
  t.equal(commits(s.v.dir), before);
  const jobs = await s.d.api('GET', '/v1/jobs');
  t.match(
    jobs.body.jobs.find((j: { name: string }) => j.name === 'curation'),
    { enabled: false, state: 'disabled', next_run: null },
  );
});
