// The git writer remembers what its own commits left on disk, so their echo from the OS watcher is not a person's
// edit, while any later change to the same note (or a note it never wrote) is.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { OwnWrites } from '../../actors/git-writer/own-writes.js';

function vault(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-own-writes-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'Inbox'));
  return dir;
}

t.test('the echo of our write is ours; a later edit, a note we never wrote and a re-created note are a person’s', async (t) => {
  const dir = vault(t);
  const own = new OwnWrites(dir);
  writeFileSync(path.join(dir, 'Inbox/a.md'), '# A\n');
  writeFileSync(path.join(dir, 'Inbox/b.md'), '# B\n');
  await own.record(['Inbox/a.md']);

  t.same(await own.othersOf(['Inbox/a.md', 'Inbox/b.md']), ['Inbox/b.md'], 'our write echoes; b was never ours');
  t.same(await own.othersOf(['Inbox/a.md']), [], 'a second event for the same write is still its echo');

  writeFileSync(path.join(dir, 'Inbox/a.md'), '# A, edited by hand\n');
  t.same(await own.othersOf(['Inbox/a.md']), ['Inbox/a.md'], 'a person edited it after us');
  writeFileSync(path.join(dir, 'Inbox/a.md'), '# A\n');
  utimesSync(path.join(dir, 'Inbox/a.md'), new Date(), new Date(Date.now() + 5_000));
  t.same(await own.othersOf(['Inbox/a.md']), ['Inbox/a.md'], 'once theirs, it stays theirs until we write it again');
});

t.test('a note we deleted echoes as ours while gone, and is a person’s once it comes back', async (t) => {
  const dir = vault(t);
  const own = new OwnWrites(dir);
  writeFileSync(path.join(dir, 'Inbox/gone.md'), 'x\n');
  unlinkSync(path.join(dir, 'Inbox/gone.md'));
  await own.record(['Inbox/gone.md']);
  t.same(await own.othersOf(['Inbox/gone.md']), [], 'the delete’s own event');
  writeFileSync(path.join(dir, 'Inbox/gone.md'), 'back\n');
  t.same(await own.othersOf(['Inbox/gone.md']), ['Inbox/gone.md'], 'a person made it again');
});

t.test('paths are compared in NFC, the way the git writer passes work-tree changes', async (t) => {
  const dir = vault(t);
  const own = new OwnWrites(dir);
  const nfc = 'Inbox/café.md';
  writeFileSync(path.join(dir, nfc), 'x\n');
  await own.record([nfc.normalize('NFD')]);
  t.same(await own.othersOf([nfc]), [], 'recorded under its NFD spelling, matched under NFC');
});
