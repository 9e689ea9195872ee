// The fact log is append-only and written by the memory tools alone: an agent's write, delete or move into
// Memory/Log/, onto Memory/tombstones.jsonl or Memory/log.md is refused `reserved` (in any letter case) and touches
// nothing, even with Memory in the allowlist; the memory tools' privileged append reaches those paths and no other.
import t from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryPaths } from '../../../actors/memory/paths.js';
import { AGENT, sandbox, snapshot, writerFor } from './helpers.js';

const memory = memoryPaths('Memory');

t.test('writes, deletes and moves onto the fact log are refused as reserved and touch nothing', async (t) => {
  const s = sandbox(t);
  mkdirSync(path.join(s.vault, 'Memory', 'Log'), { recursive: true });
  writeFileSync(path.join(s.vault, 'Memory', 'Log', '2026-05-01.md'), '# 2026-05-01\n\n## 09:00 — a\n- a fact\n');
  writeFileSync(path.join(s.vault, 'Memory', 'note.md'), 'a note beside the log\n');
  const writer = writerFor(s, { allowlist: ['Inbox', 'Memory'], reserved: memory.isReserved });
  const before = snapshot(s.top);
  const refused = [
    { op: 'write', path: 'Memory/Log/2026-05-01.md', content: 'rewritten history\n' },
    { op: 'write', path: 'Memory/Log/2026-05-02.md', content: '- a fact slipped in\n' },
    { op: 'write', path: 'memory/log/2026-05-01.md', content: 'same file on a case-insensitive disk\n' },
    { op: 'write', path: 'Memory/Log/Sub/x.md', content: 'x\n' },
    { op: 'write', path: 'Memory/tombstones.jsonl', content: '{}\n' },
    { op: 'write', path: 'Memory/log.md', content: 'x\n' },
    { op: 'delete', path: 'Memory/Log/2026-05-01.md' },
    { op: 'move', from: 'Memory/Log/2026-05-01.md', to: 'Inbox/stolen.md' },
    { op: 'move', from: 'Memory/note.md', to: 'Memory/Log/2026-05-03.md' },
    { op: 'move', from: 'Inbox/existing.md', to: 'Memory/log.md' },
  ] as const;
  for (const op of refused) {
    const r = await writer.apply(op, AGENT);
    t.match(r, { ok: false, reason: 'reserved', message: /only memory_remember and memory_forget write/ }, JSON.stringify(op));
  }
  t.same(snapshot(s.top), before, 'nothing changed on disk');
  t.match(
    await writer.apply({ op: 'write', path: 'Memory/other.md', content: 'fine\n' }, AGENT),
    { ok: true },
    'the rest of Memory is writable',
  );
});

t.test("the memory tools' privileged append reaches the reserved paths only", async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s, { allowlist: ['Inbox'], reserved: memory.isReserved });
  const log = await writer.apply(
    { op: 'write', path: 'Memory/Log/2026-05-01.md', content: '# 2026-05-01\n' },
    { ...AGENT, privileged: true },
  );
  t.match(log, { ok: true, paths: ['Memory/Log/2026-05-01.md'] }, 'outside the allowlist, still written');
  const stones = await writer.apply(
    { op: 'write', path: 'Memory/tombstones.jsonl', content: '{"fact":"x","at":"2026-05-01T00:00:00Z"}\n' },
    { ...AGENT, privileged: true },
  );
  t.match(stones, { ok: true }, 'not markdown, still written');
  t.equal(readFileSync(path.join(s.vault, 'Memory', 'tombstones.jsonl'), 'utf8'), '{"fact":"x","at":"2026-05-01T00:00:00Z"}\n');
  t.match(
    await writer.apply({ op: 'write', path: 'Inbox/x.md', content: 'x\n' }, { ...AGENT, privileged: true }),
    { ok: false, reason: 'reserved' },
    'never elsewhere',
  );
  t.match(
    await writer.apply({ op: 'write', path: 'Memory/Log/../../x.md', content: 'x\n' }, { ...AGENT, privileged: true }),
    { ok: false, reason: 'path_escape' },
    'escapes are still escapes',
  );
});
