// MEMORY.md after a consolidated run: one LLM call over the wiki's pages and the most recalled memories, written as
// one commit by agent `dream`, capped at memory_max_lines; a line a person added since the last regeneration is shown
// to the model with the instruction to keep it, and put back by memvault when the answer drops it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { promptText } from '../helpers/fake-llm.js';
import { git } from '../helpers/daemon.js';
import { dreamRig, page } from './helpers/rig.js';

t.test('MEMORY.md is regenerated after each run and keeps what a person wrote into it', async (t) => {
  const r = await dreamRig(t, {
    start: '2026-11-25T10:00:00Z',
    days: { '2026-11-23': ['Atlas cutover is on 5 December'], '2026-11-24': ['Maya leads the Atlas rollback'] },
    dream: { max_days: 1, memory_max_lines: 10 },
    memoryMd: true,
  });
  mkdirSync(path.join(r.dataDir, 'recall'), { recursive: true });
  const recalled = { at: '2026-11-24T12:00:00Z', caller: 'claude', transport: 'mcp', query: 'when is the cutover', mode: 'hybrid' };
  writeFileSync(
    path.join(r.dataDir, 'recall', '2026-11-24.jsonl'),
    `${JSON.stringify({ ...recalled, results: ['vault:Projects/Atlas.md', 'fact:2026-11-23#abcd1234'] })}\n${JSON.stringify({ ...recalled, results: ['vault:Projects/Atlas.md'] })}\n`,
  );
  const id1 = r.id('2026-11-23', 'Atlas cutover is on 5 December');
  r.llm.script(
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: { path: 'Memory/Wiki/Atlas.md', content: page([id1], '# Atlas migration\n\nAtlas cutover is on 5 December.') },
        },
      ],
    },
    { content: 'ok' },
    { content: '```markdown\n# Memory\n\n- [[Memory/Wiki/Atlas]]: the Atlas migration, cutover 5 December\n```' },
  );
  t.match(await r.cycle.tick({ requested: true }), { outcome: 'consolidated', watermark: '2026-11-23' });
  const first = promptText(r.llm.chats()[2]!);
  t.match(first, '- Memory/Wiki/Atlas.md — Atlas migration', 'the prompt lists the wiki pages');
  t.match(first, '- vault:Projects/Atlas.md × 2 ("when is the cutover")', 'and the most recalled memories');
  t.notMatch(first, 'A person edited MEMORY.md');
  t.equal(r.read('MEMORY.md'), '# Memory\n\n- [[Memory/Wiki/Atlas]]: the Atlas migration, cutover 5 December\n', 'fences dropped');
  t.match(git(r.v.dir, 'log', '-1', '--format=%B'), /Memvault-Agent: dream[\s\S]*Memvault-Reason: dream run dream-\S+ MEMORY.md/);
  t.match(r.events.find((e) => e.event === 'memory_md_regenerated')?.fields, { lines: 3, person_lines: 0 });

  // a person adds a line, committed as theirs
  r.v.write('MEMORY.md', `${r.read('MEMORY.md')}- Call me Sam, never Samuel\n`);
  await r.repo.commitHumanChanges();
  const id2 = r.id('2026-11-24', 'Maya leads the Atlas rollback');
  const long = Array.from({ length: 20 }, (_, i) => `- line ${i + 1}`).join('\n');
  r.llm.script(
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: { path: 'Memory/Wiki/Maya.md', content: page([id2], '# Maya\n\nMaya leads the Atlas rollback.') },
        },
      ],
    },
    { content: 'ok' },
    { content: `# Memory\n${long}\n` }, // drops the person's line and runs past the cap
  );
  t.match(await r.cycle.tick({ requested: true }), { outcome: 'consolidated', watermark: '2026-11-24' });
  const second = promptText(r.llm.chats()[5]!);
  t.match(
    second,
    'A person edited MEMORY.md since memvault last wrote it. Keep every one of these lines, word for word:\n- Call me Sam, never Samuel',
  );
  t.match(second, '- Memory/Wiki/Maya.md — Maya');
  const text = r.read('MEMORY.md')!;
  t.equal(text.split('\n').length - 1, 10, 'capped at memory_max_lines');
  t.match(text, /## Kept from your edits\n- Call me Sam, never Samuel\n$/, 'the person’s line is put back, never cut');
  t.match(r.events.filter((e) => e.event === 'memory_md_regenerated')[1]?.fields, { person_lines: 1, put_back: 1 });
});
