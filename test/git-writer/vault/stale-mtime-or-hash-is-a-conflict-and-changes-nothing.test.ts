// Optimistic concurrency: an expected mtime or hash that no longer matches (or a note that is gone) is a conflict,
// found before anything is written; the values the writer returns are exactly the ones that match next time.
import t from 'tap';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT, sandbox, sha256, snapshot, writerFor } from './helpers.js';

t.test('the mtime and hash returned by a write are accepted by the next write', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const first = await writer.apply({ op: 'write', path: 'Inbox/n.md', content: 'one\n' }, AGENT);
  if (!first.ok) throw new Error(first.message);
  t.equal(first.mtimeMs, statSync(path.join(s.vault, 'Inbox', 'n.md')).mtimeMs, 'mtimeMs is the file’s own');
  t.equal(first.contentHash, sha256('one\n'));
  const second = await writer.apply(
    { op: 'write', path: 'Inbox/n.md', content: 'two\n', expectedMtime: first.mtimeMs!, expectedHash: first.contentHash! },
    AGENT,
  );
  t.equal(second.ok, true);
  const upper = await writer.apply(
    { op: 'write', path: 'Inbox/n.md', content: 'three\n', expectedHash: sha256('two\n').toUpperCase() },
    AGENT,
  );
  t.equal(upper.ok, true, 'hex case does not matter');
});

t.test('a stale mtime is a conflict and the note keeps its bytes and mtime', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const file = path.join(s.vault, 'Inbox', 'existing.md');
  const seen = statSync(file).mtimeMs;
  writeFileSync(file, 'edited by a person meanwhile\n');
  // Set the edit's mtime explicitly: file clocks are coarse (a few ms on ext4), so two quick writes can share one.
  utimesSync(file, new Date(), new Date(seen + 5_000));
  const now = statSync(file).mtimeMs;
  t.not(now, seen, 'the edit moved the mtime');
  const before = snapshot(s.top);
  const res = await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: 'agent text\n', expectedMtime: seen }, AGENT);
  t.match(res, { ok: false, reason: 'conflict', message: /changed since you read it \(mtime is .*; read it again/ });
  t.same(snapshot(s.top), before);
  t.match(
    await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: 'x', expectedMtime: now + 0.001 }, AGENT),
    { reason: 'conflict' },
    'equality is exact',
  );
});

t.test('a stale hash is a conflict for write, delete and move, and nothing changes', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const stale = sha256('what the agent last read\n');
  const before = snapshot(s.top);
  for (const op of [
    { op: 'write', path: 'Inbox/existing.md', content: 'x\n', expectedHash: stale },
    { op: 'delete', path: 'Inbox/existing.md', expectedHash: stale },
    { op: 'move', from: 'Inbox/existing.md', to: 'Meetings/moved.md', expectedHash: stale },
    { op: 'delete', path: 'Inbox/existing.md', expectedMtime: 1 },
    { op: 'move', from: 'Inbox/existing.md', to: 'Meetings/moved.md', expectedMtime: 1 },
  ] as const) {
    t.match(await writer.apply(op, AGENT), { ok: false, reason: 'conflict' }, `${op.op} ${JSON.stringify(op)}`);
  }
  t.same(snapshot(s.top), before);
});

t.test('an expectation about a note that does not exist is a conflict, and nothing is created', async (t) => {
  const s = sandbox(t);
  const before = snapshot(s.top);
  const res = await writerFor(s).apply({ op: 'write', path: 'Inbox/gone.md', content: 'x', expectedMtime: 123 }, AGENT);
  t.match(res, { ok: false, reason: 'conflict', message: /does not exist, but an expected mtime\/hash was given/ });
  t.match(await writerFor(s).apply({ op: 'write', path: 'Inbox/gone.md', content: 'x', expectedHash: sha256('') }, AGENT), {
    reason: 'conflict',
  });
  t.same(snapshot(s.top), before);
});
