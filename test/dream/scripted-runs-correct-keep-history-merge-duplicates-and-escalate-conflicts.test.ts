// Dream runs against a real chat-completions server on loopback whose answers are scripted tool calls: the prompt
// lists the batch's facts with their ids and the rules; a correction replaces the wrong statement, a change of state
// keeps its history, a duplicate is merged once, a genuine conflict goes to Inbox/Conflicts; each run appends its
// watermark line to Memory/log.md as one commit by agent `dream`, and the day logs stay byte-identical.
import t from 'tap';
import { readWatermark } from '../../actors/dream/journal.js';
import { promptText } from '../helpers/fake-llm.js';
import { git } from '../helpers/daemon.js';
import { dreamRig, page } from './helpers/rig.js';

const START = '2026-11-25T10:00:00Z';

t.test('a correction replaces the wrong statement and the run advances the watermark', async (t) => {
  const wrong = 'The team standup is on Mondays at 9';
  const fix = 'Correction: the team standup is on Tuesdays at 9, not Mondays';
  const r = await dreamRig(t, { start: START, days: { '2026-11-23': [wrong], '2026-11-24': [fix] } });
  const logs = r.logHashes();
  const [a, b] = [r.id('2026-11-23', wrong), r.id('2026-11-24', fix)];
  r.llm.script(
    { toolCalls: [{ name: 'vault_list', arguments: { folder: 'Memory/Wiki' } }] },
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: {
            path: 'Memory/Wiki/Team standup.md',
            content: page(
              [a, b],
              '# Team standup\n\nThe team standup is on Tuesdays at 9 (was noted as Mondays, corrected on 2026-11-24).',
            ),
          },
        },
      ],
    },
    { content: 'Done: one page.' },
  );
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated', batch: '2026-11-23..2026-11-24', watermark: '2026-11-24' });
  if (res.outcome !== 'consolidated') return;
  t.same(res.pages, ['Memory/Wiki/Team standup.md']);
  t.same([...res.covered].sort(), [a, b].sort(), 'both facts are on the page');
  const [first, second, third] = r.llm.chats();
  const prompt = promptText(first!);
  t.match(prompt, `${a}: 09:00 — claude: ${wrong}`, 'the prompt lists each fact with its id');
  t.match(prompt, `${b}: 09:00 — claude: ${fix}`);
  t.match(prompt, 'A correction replaces the wrong statement');
  t.same(
    first!.body.tools.map((x: { function: { name: string } }) => x.function.name),
    ['memory_search', 'vault_read', 'vault_list', 'vault_link', 'vault_write'],
  );
  t.same(second!.body.messages.at(-1), { role: 'tool', tool_call_id: 'call_0', content: '(empty)' }, 'the tool result goes back');
  t.match(third!.body.messages.at(-1).content, /^written Memory\/Wiki\/Team standup\.md \(commit [0-9a-f]{12}\)$/);
  t.notMatch(r.read('Memory/Wiki/Team standup.md'), /on Mondays at 9\b(?! \()/, 'the wrong statement is gone');
  t.equal(readWatermark(r.read('Memory/log.md')), '2026-11-24');
  t.match(
    r.read('Memory/log.md'),
    new RegExp(`watermark=2026-11-24 outcome=consolidated batch=2026-11-23\\.\\.2026-11-24 run=${res.id} pages=1 covered=2 uncovered=0`),
  );
  const trailers = git(r.v.dir, 'log', '-2', '--format=%(trailers:only,unfold)');
  t.match(trailers, `Memvault-Agent: dream`);
  t.match(trailers, `Memvault-Reason: dream run ${res.id} batch 2026-11-23..2026-11-24`);
  t.match(trailers, `Memvault-Run: ${res.id}\nMemvault-Batch: 2026-11-23..2026-11-24`);
  t.equal(git(r.v.dir, 'log', '--format=%s', '-1').trim(), 'memvault: write Memory/log.md', 'the watermark is its own commit');
  t.same(r.logHashes(), logs, 'the day logs are byte-identical');
  t.same(
    r.events.map((e) => e.event),
    ['dream_gate_checked', 'dream_started', 'dream_watermark_advanced'],
  );
});

t.test('a change of state keeps the history and a duplicate is merged once into the existing page', async (t) => {
  const berlin = 'Maya lives in Berlin';
  const moved = 'Maya moved from Berlin to Lisbon in March 2026';
  const dup = 'maya lives in berlin.';
  const existing = page(['2026-11-01#00000000'], '# Maya\n\nMaya works on the Atlas migration.');
  const r = await dreamRig(t, {
    start: START,
    days: { '2026-11-20': [berlin, 'Maya works on Atlas'], '2026-11-21': [dup, moved] },
    files: { 'Memory/Wiki/Maya.md': existing },
  });
  const logs = r.logHashes();
  const ids = [r.id('2026-11-20', berlin), r.id('2026-11-20', 'Maya works on Atlas'), r.id('2026-11-21', dup), r.id('2026-11-21', moved)];
  t.not(ids[0], ids[2], 'a duplicate on another day has its own id');
  r.llm.script(
    { toolCalls: [{ name: 'vault_read', arguments: { path: 'Memory/Wiki/Maya.md' } }] },
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: {
            path: 'Memory/Wiki/Maya.md',
            content: page(
              ['2026-11-01#00000000', ...ids],
              '# Maya\n\nMaya works on the Atlas migration.\n\n- Maya lived in Berlin until March 2026, then moved to Lisbon.',
            ),
          },
        },
      ],
    },
    { content: 'Merged.' },
  );
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated', watermark: '2026-11-21' });
  const second = r.llm.chats()[1]!;
  t.equal(second.body.messages.at(-1).content, existing, 'vault_read answered with the page as it was');
  const text = r.read('Memory/Wiki/Maya.md')!;
  t.match(text, 'Maya works on the Atlas migration', 'what the page said is kept');
  t.match(text, 'lived in Berlin until March 2026, then moved to Lisbon', 'the history is kept');
  t.equal(text.match(/Berlin/g)?.length, 1, 'the duplicate is merged once');
  if (res.outcome === 'consolidated') t.same(res.uncovered, [], 'every fact of the batch is covered');
  t.same(r.logHashes(), logs);
});

t.test('a genuine conflict is written to Inbox/Conflicts for a person, not resolved', async (t) => {
  const one = 'The Atlas cutover is on 5 December';
  const two = 'The Atlas cutover is on 12 December';
  const r = await dreamRig(t, { start: START, days: { '2026-11-22': [one, two] } });
  const logs = r.logHashes();
  const [a, b] = [r.id('2026-11-22', one), r.id('2026-11-22', two)];
  r.llm.script(
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: {
            path: 'Inbox/Conflicts 2026-11-22.md',
            content: page(
              [a, b],
              `# Conflicts\n\n- ${a}: The Atlas cutover is on 5 December\n- ${b}: The Atlas cutover is on 12 December\n`,
            ),
          },
        },
        {
          name: 'vault_write',
          arguments: {
            path: 'Memory/Wiki/Atlas.md',
            content: page([], '# Atlas\n\nThe cutover date is disputed: see [[Inbox/Conflicts 2026-11-22]].'),
          },
        },
      ],
    },
    { content: 'Escalated.' },
  );
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated', pages: ['Memory/Wiki/Atlas.md'] });
  const conflicts = r.read('Inbox/Conflicts 2026-11-22.md')!;
  t.match(conflicts, '5 December');
  t.match(conflicts, '12 December');
  t.notMatch(r.read('Memory/Wiki/Atlas.md')!, /\d+ December/, 'the page does not pick a side');
  if (res.outcome === 'consolidated')
    t.same([...res.uncovered].sort(), [a, b].sort(), 'both stay searchable as log facts until a person decides');
  t.match(promptText(r.llm.chats()[0]!), 'Inbox/Conflicts 2026-11-22.md', 'the prompt names the conflicts note');
  t.same(r.logHashes(), logs);
});
