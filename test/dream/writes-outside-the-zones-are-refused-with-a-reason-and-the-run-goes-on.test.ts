// Confinement is memvault’s, not the prompt’s: the model trying to write a day log, Memory/log.md, USER.md,
// MEMORY.md, a note outside the zones, a `../` path, or calling a tool that does not exist, gets each refused with
// its reason as the tool's answer (as is reading a sensitive note or through a symlink out of the vault); nothing
// of it reaches the disk or git, and the run goes on to its page.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { dreamRig, page } from './helpers/rig.js';

t.test('every forbidden write is refused with its reason and the run still consolidates', async (t) => {
  const fact = 'Lena prefers written updates over calls';
  const r = await dreamRig(t, {
    start: '2026-11-25T10:00:00Z',
    days: { '2026-11-24': [fact] },
    files: { 'USER.md': '# About me\n', 'Projects/Atlas.md': '# Atlas\n', 'Private/diary.md': '---\nsensitive: true\n---\nSecret.\n' },
  });
  mkdirSync(path.join(r.v.dir, 'Memory', 'Wiki'), { recursive: true });
  symlinkSync('/etc/hostname', path.join(r.v.dir, 'Memory', 'Wiki', 'escape.md')); // a link out of the vault
  const logs = r.logHashes();
  const user = r.read('USER.md');
  const head = git(r.v.dir, 'rev-parse', 'HEAD').trim();
  const attempts: Array<[string, Record<string, unknown>, string]> = [
    ['vault_write', { path: 'Memory/Log/2026-11-24.md', content: '- rewritten\n' }, 'log_protected'],
    ['vault_write', { path: 'Memory/Log/2026-11-25.md', content: '- invented\n' }, 'log_protected'],
    ['vault_write', { path: 'Memory/log.md', content: 'watermark=2099-01-01\n' }, 'log_protected'],
    ['vault_write', { path: 'Memory/tombstones.jsonl', content: '{}\n' }, 'log_protected'],
    ['vault_write', { path: 'USER.md', content: '# hacked\n' }, 'protected_file'],
    ['vault_write', { path: 'MEMORY.md', content: '# hacked\n' }, 'protected_file'],
    ['vault_write', { path: 'Projects/Atlas.md', content: '# overwritten\n' }, 'outside_zone'],
    ['vault_write', { path: 'Memory/Wiki/../../Projects/Atlas.md', content: 'x' }, 'path_escape'],
    ['vault_write', { path: '../outside.md', content: 'x' }, 'path_escape'],
    ['vault_write', { path: '/etc/passwd.md', content: 'x' }, 'path_escape'],
    ['vault_link', { from: 'Projects/Atlas.md', to: 'Memory/Wiki/Lena' }, 'outside_zone'],
    ['shell', { cmd: 'rm -rf /' }, 'unknown_tool'],
    ['vault_read', { path: 'Private/diary.md' }, 'sensitive'],
    ['vault_read', { path: 'Memory/Wiki/escape.md' }, 'path_escape'],
    ['vault_read', { path: '../memvault.yaml' }, 'path_escape'],
  ];
  r.llm.script(
    { toolCalls: attempts.map(([name, args], i) => ({ id: `bad_${i}`, name, arguments: args })) },
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: {
            path: 'Memory/Wiki/Lena.md',
            content: page([r.id('2026-11-24', fact)], '# Lena\n\nLena prefers written updates over calls.'),
          },
        },
      ],
    },
    { content: 'Done.' },
  );
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated', watermark: '2026-11-24', pages: ['Memory/Wiki/Lena.md'] });
  const answers = r.llm.chats()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
  t.equal(answers.length, attempts.length, 'every call was answered');
  attempts.forEach(([name, , reason], i) => {
    t.equal(answers[i].tool_call_id, `bad_${i}`);
    t.match(answers[i].content, `refused (${reason})`, `${name} ${JSON.stringify(attempts[i]![1])} → ${reason}`);
  });
  t.same(
    r.events.filter((e) => e.event === 'dream_tool_refused').map((e) => e.fields['reason']),
    attempts.map((a) => a[2]),
    'each refusal is an event',
  );
  t.same(
    r.tools.map((x) => x.outcome),
    [...attempts.map((a) => a[2]), 'ok'],
    'each call is counted by tool and outcome',
  );
  t.same(r.logHashes(), logs, 'the day logs are byte-identical');
  t.equal(r.read('USER.md'), user);
  t.equal(r.read('Projects/Atlas.md'), '# Atlas\n');
  t.equal(r.read('MEMORY.md'), null);
  t.equal(git(r.v.dir, 'log', '--format=%s', `${head}..HEAD`).trim().split('\n').length, 2, 'two commits: the page and the watermark');
});
