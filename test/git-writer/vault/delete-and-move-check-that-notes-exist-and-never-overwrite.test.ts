// Delete and move: a missing note is `missing`, a move onto an existing note is `exists` (nothing is overwritten),
// and successful ones report the paths, mtime and hash a caller needs next.
import t from 'tap';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AGENT, sandbox, sha256, snapshot, writerFor } from './helpers.js';

t.test('deleting or moving a note that does not exist is missing', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const before = snapshot(s.top);
  t.match(await writer.apply({ op: 'delete', path: 'Inbox/nope.md' }, AGENT), {
    ok: false,
    reason: 'missing',
    message: /'Inbox\/nope\.md' does not exist, so there is nothing to delete/,
  });
  t.match(await writer.apply({ op: 'move', from: 'Inbox/nope.md', to: 'Inbox/new.md' }, AGENT), {
    ok: false,
    reason: 'missing',
    message: /nothing to move/,
  });
  t.match(
    await writer.apply({ op: 'delete', path: 'Inbox/nope.md', expectedMtime: 5 }, AGENT),
    { reason: 'missing' },
    'existence is checked before expectations',
  );
  t.same(snapshot(s.top), before);
});

t.test('moving onto an existing note is exists and both notes keep their bytes', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  await writer.apply({ op: 'write', path: 'Meetings/taken.md', content: 'already here\n' }, AGENT);
  const before = snapshot(s.top);
  t.match(await writer.apply({ op: 'move', from: 'Inbox/existing.md', to: 'Meetings/taken.md' }, AGENT), {
    ok: false,
    reason: 'exists',
    message: /'Meetings\/taken\.md' already exists/,
  });
  t.match(await writer.apply({ op: 'move', from: 'Inbox/existing.md', to: 'Inbox/existing.md' }, AGENT), {
    ok: false,
    reason: 'exists',
    message: /same note/,
  });
  t.match(
    await writer.apply({ op: 'move', from: 'Inbox/existing.md', to: 'Secrets/x.md' }, AGENT),
    { ok: false, reason: 'outside_allowlist' },
    'the destination must be writable too',
  );
  t.same(snapshot(s.top), before);
});

t.test('a move lands in a new folder with the same bytes, and returns both paths, mtime and hash', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const bytes = readFileSync(path.join(s.vault, 'Inbox', 'existing.md'));
  const res = await writer.apply({ op: 'move', from: 'Inbox/existing.md', to: 'Meetings/2026/kept.md' }, AGENT);
  const dest = path.join(s.vault, 'Meetings', '2026', 'kept.md');
  t.same(res, {
    ok: true,
    paths: ['Inbox/existing.md', 'Meetings/2026/kept.md'],
    mtimeMs: statSync(dest).mtimeMs,
    contentHash: sha256(bytes),
  });
  t.notOk(existsSync(path.join(s.vault, 'Inbox', 'existing.md')));
  t.same(readFileSync(dest), bytes);
});

t.test('a delete removes the note and returns no mtime or hash', async (t) => {
  const s = sandbox(t);
  const res = await writerFor(s).apply(
    { op: 'delete', path: 'Inbox/existing.md', expectedHash: sha256(readFileSync(path.join(s.vault, 'Inbox', 'existing.md'))) },
    AGENT,
  );
  t.same(res, { ok: true, paths: ['Inbox/existing.md'], mtimeMs: null, contentHash: null });
  t.notOk(existsSync(path.join(s.vault, 'Inbox', 'existing.md')));
  t.ok(existsSync(path.join(s.vault, 'Inbox')), 'the folder stays, as Obsidian keeps empty folders');
});
