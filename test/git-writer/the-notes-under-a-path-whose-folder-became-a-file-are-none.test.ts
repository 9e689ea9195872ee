// The people's-edits path lists the notes inside a folder named like a note (folder-notes.ts). Events name paths as
// they were: by the time they are read, `flip.md/` may be a file again, so `flip.md/inner.md` cannot be looked at
// (ENOTDIR, not ENOENT). That is no notes, not a crash of the git writer (the hostile campaign's flips found it).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { notesUnder } from '../../actors/git-writer/folder-notes.js';
import { makeIgnore } from '../../actors/watcher/scan.js';

t.test('notes under a folder, none under a file, a missing path or a path through a file', async (t) => {
  const root = t.testdir({ 'flip.md': '# now a file\n' });
  mkdirSync(path.join(root, 'dir.md/deeper'), { recursive: true });
  writeFileSync(path.join(root, 'dir.md/a.md'), '# A\n');
  writeFileSync(path.join(root, 'dir.md/deeper/b.md'), '# B\n');
  writeFileSync(path.join(root, 'dir.md/.hidden.md'), '# hidden\n');
  const ignore = makeIgnore([]);
  t.same(notesUnder(root, 'dir.md', ignore).sort(), ['dir.md/a.md', 'dir.md/deeper/b.md'], 'the notes inside, hidden ones left out');
  t.same(notesUnder(root, 'flip.md', ignore), [], 'a file: none');
  t.same(notesUnder(root, 'flip.md/inner.md', ignore), [], 'a path through a file (ENOTDIR): none, no throw');
  t.same(notesUnder(root, 'gone.md', ignore), [], 'a missing path: none');
});
