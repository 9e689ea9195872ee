// Atomic writes: the target holds exactly the new bytes and no temp file is left; a write that fails part-way
// (a real EFBIG from a file-size limit, a rename onto a folder) leaves the old note and cleans up its temp file.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicWriteFile, moveFile, removeFile } from '../../../actors/git-writer/vault/atomic.js';
import { AGENT, sandbox, sha256, snapshot, tempFiles, writerFor } from './helpers.js';

const WRITER_JS = fileURLToPath(new URL('../../../actors/git-writer/vault/vault-writer.js', import.meta.url));

t.test('a write leaves exactly the new bytes, no temp file, and the note’s permission bits', async (t) => {
  const s = sandbox(t);
  const file = path.join(s.vault, 'Inbox', 'existing.md');
  chmodSync(file, 0o600);
  const res = await writerFor(s).apply(
    { op: 'write', path: 'Inbox/existing.md', content: '---\ntitle: Existing\n---\nnew bytes ✓\n' },
    AGENT,
  );
  t.same(readFileSync(file), Buffer.from('---\ntitle: Existing\n---\nnew bytes ✓\n'));
  t.match(res, { ok: true, contentHash: sha256(readFileSync(file)), mtimeMs: statSync(file).mtimeMs });
  t.equal(statSync(file).mode & 0o777, 0o600, 'a private note stays private');
  t.same(tempFiles(s.top), []);
});

t.test('missing folders are created, and a 255-byte name still fits its temp file', async (t) => {
  const s = sandbox(t);
  const name = `${'n'.repeat(252)}.md`;
  const rel = `Inbox/a/b/c/${name}`;
  const res = await writerFor(s).apply({ op: 'write', path: rel, content: 'deep\n' }, AGENT);
  t.same(res.ok && res.paths, [rel]);
  t.equal(readFileSync(path.join(s.vault, rel), 'utf8'), 'deep\n');
  t.same(tempFiles(s.top), []);
});

t.test('a write that fails part-way (EFBIG under a file-size limit) keeps the old note and removes the temp file', async (t) => {
  const s = sandbox(t);
  const file = path.join(s.vault, 'Inbox', 'existing.md');
  const before = snapshot(s.top);
  // A child process with `ulimit -f 8`: the kernel stops the temp file at 8 KiB, in the middle of a 100 KB write.
  const script = `
    process.on('SIGXFSZ', () => {}); // report the limit as an EFBIG write error rather than die of the signal
    const { VaultWriter } = await import(${JSON.stringify(WRITER_JS)});
    const w = new VaultWriter({ root: ${JSON.stringify(s.vault)}, allowlist: ['Inbox'], maxBytes: 1e6 });
    const r = await w.apply({ op: 'write', path: 'Inbox/existing.md', content: 'y'.repeat(100_000) }, { agent: 't' });
    console.log(JSON.stringify(r));`;
  const child = spawnSync(
    'bash',
    ['--norc', '--noprofile', '-c', 'ulimit -f 8 && exec "$0" --input-type=module -e "$1"', process.execPath, script],
    {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' }, // without tap's NODE_OPTIONS hooks, which write files of their own
    },
  );
  t.equal(child.status, 0, `signal ${child.signal}: ${child.stderr}`);
  t.match(JSON.parse(child.stdout), { ok: false, reason: 'unavailable', message: /EFBIG/ });
  t.same(snapshot(s.top), before, 'old bytes, old mtime, and no temp file left');
  t.equal(readFileSync(file, 'utf8'), '---\ntitle: Existing\n---\nexisting body\n');
});

t.test('a process killed in the middle of a write (a crash) leaves the old note whole', async (t) => {
  const s = sandbox(t);
  const before = snapshot(s.top);
  // Adding and removing a listener puts SIGXFSZ back to its default action: the kernel kills the process as the
  // temp file reaches the limit, half-written, before any rename.
  const script = `
    const f = () => {}; process.on('SIGXFSZ', f); process.off('SIGXFSZ', f);
    const { VaultWriter } = await import(${JSON.stringify(WRITER_JS)});
    const w = new VaultWriter({ root: ${JSON.stringify(s.vault)}, allowlist: ['Inbox'], maxBytes: 1e6 });
    await w.apply({ op: 'write', path: 'Inbox/existing.md', content: 'z'.repeat(100_000) }, { agent: 't' });
    console.log('survived');`;
  const child = spawnSync(
    'bash',
    ['--norc', '--noprofile', '-c', 'ulimit -f 8 && exec "$0" --input-type=module -e "$1"', process.execPath, script],
    {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
    },
  );
  t.equal(child.signal, 'SIGXFSZ', 'the writer died mid-write');
  const after = snapshot(s.top);
  const leftovers = tempFiles(s.top);
  t.equal(leftovers.length, 1, 'a crash cannot clean up: one hidden temp file remains');
  t.match(leftovers[0], /^vault\/Inbox\/\.existing\.md\.[0-9a-f]{12}\.tmp$/, 'hidden and not a .md, so watchers and Obsidian skip it');
  for (const p of leftovers) delete after[p];
  t.same(after, before, 'the note keeps its old bytes and mtime');
});

t.test('a rename that fails (the target is a folder) removes the temp file and rethrows', async (t) => {
  const s = sandbox(t);
  const dir = path.join(s.vault, 'Inbox', 'busy.md');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'inside.md'), 'keep me\n');
  const before = snapshot(s.top);
  await t.rejects(atomicWriteFile(dir, 'new'), { code: /^(EISDIR|ENOTEMPTY|EEXIST)$/ });
  t.same(snapshot(s.top), before);
  t.same(readdirSync(path.join(s.vault, 'Inbox')).sort(), ['busy.md', 'existing.md']);
});

t.test('moveFile never overwrites and removeFile reports a missing note', async (t) => {
  const s = sandbox(t);
  const a = path.join(s.vault, 'Inbox', 'a.md');
  const b = path.join(s.vault, 'Inbox', 'b.md');
  writeFileSync(a, 'A');
  writeFileSync(b, 'B');
  t.match(await moveFile(a, b), { ok: false, reason: 'exists' });
  t.equal(readFileSync(b, 'utf8'), 'B');
  t.match(await moveFile(path.join(s.vault, 'Inbox', 'none.md'), path.join(s.vault, 'Inbox', 'c.md')), { ok: false, reason: 'missing' });
  t.same(await moveFile(a, path.join(s.vault, 'Meetings', 'x', 'a.md')), { ok: true });
  t.equal(readFileSync(path.join(s.vault, 'Meetings', 'x', 'a.md'), 'utf8'), 'A');
  t.same(await removeFile(b), { ok: true });
  t.match(await removeFile(b), { ok: false, reason: 'missing' });
});
