// Sensitivity: an agent without mayReadSensitive may not overwrite a sensitive note, probe it with expectedHash, or
// move it where its location no longer protects it; creating, deleting and moving within sensitive paths are fine.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT, sandbox, sha256, snapshot, writerFor, type Sandbox } from './helpers.js';

const PRIVATE = 'Inbox/private/';
const agent = { ...AGENT, mayReadSensitive: false };
const trusted = { ...AGENT, mayReadSensitive: true };

function setup(t: Parameters<typeof sandbox>[0]): { s: Sandbox; writer: ReturnType<typeof writerFor> } {
  const s = sandbox(t);
  const writer = writerFor(s, { isSensitive: (rel) => rel.startsWith(PRIVATE) });
  return { s, writer };
}

async function seed(writer: ReturnType<typeof writerFor>): Promise<void> {
  for (const [p, content] of [
    ['Inbox/private/diary.md', '---\nmood: low\n---\nsecret words\n'],
    ['Inbox/flagged.md', '---\nsensitive: true\napi_key: hunter2\n---\nflagged words\n'],
    ['Inbox/local.md', '---\nmemvault: local-only\n---\nlocal words\n'],
  ] as const) {
    const r = await writer.apply({ op: 'write', path: p, content }, trusted);
    if (!r.ok) throw new Error(r.message);
  }
}

t.test('overwriting a sensitive note, by path or by frontmatter flag, is sensitive for an agent that may not read it', async (t) => {
  const { s, writer } = setup(t);
  await seed(writer);
  const before = snapshot(s.top);
  for (const p of ['Inbox/private/diary.md', 'Inbox/flagged.md', 'Inbox/local.md']) {
    const r = await writer.apply({ op: 'write', path: p, content: '---\nsensitive: false\n---\nmine now\n' }, agent);
    t.match(r, { ok: false, reason: 'sensitive', message: /may not overwrite it/ }, p);
  }
  t.same(snapshot(s.top), before, 'the old frontmatter (api_key) was not carried into content the agent controls');
  const ok = await writer.apply({ op: 'write', path: 'Inbox/flagged.md', content: 'rewritten\n' }, trusted);
  t.equal(ok.ok, true, 'a trusted caller may');
  t.equal(readFileSync(path.join(s.vault, 'Inbox', 'flagged.md'), 'utf8'), '---\nsensitive: true\napi_key: hunter2\n---\nrewritten\n');
});

t.test('creating a new note at a sensitive path exposes nothing and is allowed', async (t) => {
  const { writer } = setup(t);
  const r = await writer.apply({ op: 'write', path: 'Inbox/private/new.md', content: 'fresh\n' }, agent);
  t.match(r, { ok: true, contentHash: sha256('fresh\n') });
});

t.test('expectedHash against a sensitive note is refused, since the answer would confirm a guess', async (t) => {
  const { s, writer } = setup(t);
  await seed(writer);
  const guess = sha256('---\nmood: low\n---\nsecret words\n');
  const before = snapshot(s.top);
  t.match(await writer.apply({ op: 'delete', path: 'Inbox/private/diary.md', expectedHash: guess }, agent), {
    ok: false,
    reason: 'sensitive',
    message: /use expectedMtime instead/,
  });
  t.match(await writer.apply({ op: 'move', from: 'Inbox/private/diary.md', to: 'Inbox/private/b.md', expectedHash: guess }, agent), {
    reason: 'sensitive',
  });
  t.same(snapshot(s.top), before);
});

t.test('deleting a sensitive note is allowed: it reveals nothing', async (t) => {
  const { writer } = setup(t);
  await seed(writer);
  t.match(await writer.apply({ op: 'delete', path: 'Inbox/private/diary.md' }, agent), { ok: true, paths: ['Inbox/private/diary.md'] });
});

t.test('a move out of the sensitive area is refused; within it, or of a self-flagged note, it is allowed without a hash', async (t) => {
  const { s, writer } = setup(t);
  await seed(writer);
  const before = snapshot(s.top);
  t.match(await writer.apply({ op: 'move', from: 'Inbox/private/diary.md', to: 'Inbox/public.md' }, agent), {
    ok: false,
    reason: 'sensitive',
    message: /would expose it/,
  });
  t.same(snapshot(s.top), before);
  t.match(await writer.apply({ op: 'move', from: 'Inbox/private/diary.md', to: 'Inbox/private/2026/diary.md' }, agent), {
    ok: true,
    contentHash: null,
  });
  t.match(
    await writer.apply({ op: 'move', from: 'Inbox/flagged.md', to: 'Meetings/flagged.md' }, agent),
    { ok: true, contentHash: null },
    'the flag travels with the note',
  );
  const bytes = readFileSync(path.join(s.vault, 'Meetings', 'flagged.md'));
  t.match(await writer.apply({ op: 'move', from: 'Meetings/flagged.md', to: 'Inbox/back.md' }, trusted), {
    ok: true,
    contentHash: sha256(bytes),
  });
});

t.test('an unreadable old file (not UTF-8) is simply replaced, never a reason to refuse', async (t) => {
  const { s, writer } = setup(t);
  writeFileSync(
    path.join(s.vault, 'Inbox', 'latin1.md'),
    Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x61, 0x3a, 0x20, 0xe9, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
  );
  const r = await writer.apply({ op: 'write', path: 'Inbox/latin1.md', content: 'clean\n' }, agent);
  t.equal(r.ok, true);
  t.equal(readFileSync(path.join(s.vault, 'Inbox', 'latin1.md'), 'utf8'), 'clean\n');
});
