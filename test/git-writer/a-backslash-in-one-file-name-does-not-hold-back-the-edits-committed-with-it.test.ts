// A person's note named `back\slash.md` (a name memvault cannot index, but git stores as it is) used to make the
// whole person-commit it fell in throw, unseen: the other edits of that batch (a deletion, a rename to .txt, a note
// in a folder named `dir.md/`, a 300-note folder removed) stayed uncommitted until the daemon restarted.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git, within } from '../helpers/daemon.js';

t.test('every edit of a batch holding a backslash-named note is committed as the owner, that note with them', async (t) => {
  const old = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`Old/note-${i}.md`, `# Old ${i}\n\nan old note\n`]));
  const { v, d } = await daemonOn(
    t,
    {
      ...old,
      'Inbox/kept.md': '# Kept\n\nstays\n',
      'Daily/2026-11-16.md': '# Monday\n\na day\n',
      'Notes/note.md': '# Note\n\nbecomes text\n',
    },
    'writes:\n  human_quiet_ms: 200\n',
  );
  const backslash = 'Inbox/back\\slash.md';
  const want = new Set([backslash, 'Daily/2026-11-16.md', 'Notes/note.md', 'dir.md/inside.md', ...Object.keys(old)]);
  const committed = new Set<string>();
  const all = new Promise<void>((resolve) => {
    const off = d.daemon.onRouted((m) => {
      if (m.type !== 'main.committed' || m.kind !== 'human') return;
      for (const p of m.paths) committed.add(p);
      if ([...want].every((p) => committed.has(p))) {
        off();
        resolve();
      }
    });
  });

  // all at once, so they fall in one quiet period and one person-commit (in folders that exist, but for dir.md/)
  writeFileSync(path.join(v.dir, backslash), '# bs\n');
  rmSync(path.join(v.dir, 'Daily/2026-11-16.md'));
  renameSync(path.join(v.dir, 'Notes/note.md'), path.join(v.dir, 'Notes/note.txt'));
  mkdirSync(path.join(v.dir, 'dir.md'));
  writeFileSync(path.join(v.dir, 'dir.md/inside.md'), '# Inside\n\na note in a folder named like a note\n');
  rmSync(path.join(v.dir, 'Old'), { recursive: true });

  await within(all, 30_000, `commits of ${[...want].filter((p) => !committed.has(p)).length} edits`).catch((err: Error) => {
    t.fail(
      `${err.message}; never committed: ${[...want]
        .filter((p) => !committed.has(p))
        .slice(0, 5)
        .join(', ')}`,
    );
  });
  t.same(
    git(v.dir, 'status', '--porcelain', '--untracked-files=all').trim().split('\n'),
    ['?? Notes/note.txt'],
    'only the non-note is left for the person to decide',
  );
  const tracked = git(v.dir, 'ls-files', '-z').split('\0');
  t.ok(tracked.includes(backslash), 'the backslash-named note is in the history, named as on disk');
  t.ok(tracked.includes('dir.md/inside.md'), 'so is the note inside dir.md/');
  t.notOk(
    tracked.some((p) => p.startsWith('Old/') || p === 'Daily/2026-11-16.md' || p === 'Notes/note.md'),
    'the deletions are committed',
  );
  t.same(
    new Set(
      git(v.dir, 'log', '--format=%an', `${git(v.dir, 'rev-list', '--max-parents=0', 'HEAD').trim()}..HEAD`)
        .trim()
        .split('\n'),
    ),
    new Set(['vault owner']),
    'every commit after the import is the owner’s',
  );
});
