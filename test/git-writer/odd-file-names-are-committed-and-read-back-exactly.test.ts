// Names with spaces, unicode, `#`, glob characters, a leading dash, a colon or even a newline commit and parse back exactly.
import t from 'tap';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git, status, vaultWith, write } from './helpers/vault-repo.js';

const ODD = [
  'with space.md',
  'Ünïcødé/日本語 ノート.md',
  '#tag note.md',
  '-x.md',
  '--force.md',
  '[draft] *.md',
  ':(glob)magic.md',
  'quote "in" name.md',
  '"leading quote.md',
  'trailing space .md',
  'emoji 🧠.md',
  'new\nline.md',
];

t.test('each odd name is written, committed alone, and read back from the log exactly', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'decoy.md': 'must not be swept in by a glob\n' });
  write(dir, 'decoy.md', 'changed, and a [draft] *.md pathspec would match me\n');
  for (const p of ODD) {
    write(dir, p, `content of ${p}\n`);
    const r = await repo.commit([p], { op: 'write', paths: [p], agent: 'claude' });
    if (!r.ok) {
      t.fail(`${JSON.stringify(p)}: ${r.message}`);
      continue;
    }
    t.same(git(dir, 'show', '-z', '--name-only', '--format=', r.sha).split('\0').filter(Boolean), [p], `${JSON.stringify(p)} alone`);
    t.equal(git(dir, 'show', `${r.sha}:${p}`), `content of ${p}\n`);
  }
  t.same(status(dir), [' M decoy.md'], 'the decoy stays uncommitted');
  const log = await repo.log(ODD.length);
  t.same(log.map((e) => e.paths[0]).reverse(), ODD, 'Memvault-Path trailers round-trip');
  t.ok(log.every((e) => e.paths.length === 1 && e.op === 'write'));
  t.equal(
    git(dir, 'log', '-1', '--format=%s').trimEnd(),
    'memvault: write "new\\nline.md"',
    'a newline in a name is quoted, not breaking the subject',
  );
  git(dir, 'fsck', '--strict');
});

t.test('odd names written at once (one grouped fast-import) commit and read back exactly', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'decoy.md': 'x\n' });
  write(dir, 'decoy.md', 'changed\n');
  for (const p of ODD) write(dir, p, `grouped ${p}\n`);
  const rs = await Promise.all(ODD.map((p) => repo.commit([p], { op: 'write', paths: [p], agent: 'claude' })));
  t.ok(
    rs.every((r) => r.ok),
    JSON.stringify(rs.filter((r) => !r.ok)),
  );
  for (const [i, r] of rs.entries()) {
    if (!r.ok) continue;
    t.same(git(dir, 'show', '-z', '--name-only', '--format=', r.sha).split('\0').filter(Boolean), [ODD[i]]);
    t.equal(git(dir, 'show', `${r.sha}:${ODD[i]!}`), `grouped ${ODD[i]!}\n`);
  }
  t.same(status(dir), [' M decoy.md']);
  t.same((await repo.log(ODD.length)).map((e) => e.paths[0]).reverse(), ODD);
  git(dir, 'fsck', '--strict');
});

t.test('odd names survive delete, human commits, dirtyPaths and undo', async (t) => {
  const { dir, repo } = await vaultWith(t, {});
  for (const p of ODD) write(dir, p, `v1 ${p}\n`);
  t.same((await repo.dirtyPaths()).sort(), [...ODD].sort());
  const h = await repo.commitHumanChanges();
  t.match(h, { ok: true });
  if (h.ok) t.same([...h.paths].sort(), [...ODD].sort());

  rmSync(join(dir, '-x.md'));
  const d = await repo.commit(['-x.md'], { op: 'delete', paths: ['-x.md'], agent: 'claude' });
  t.ok(d.ok);
  t.equal(git(dir, 'show', '--name-status', '--format=', 'HEAD').trim(), 'D\t-x.md');
  const u = await repo.undoLast({ byAgent: 'claude' });
  t.match(u, { ok: true, paths: ['-x.md'] });
  t.same(status(dir), []);
});
