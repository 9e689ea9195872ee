// A note with malformed frontmatter is indexed with a warning (`frontmatter_invalid`). Renamed, it keeps its chunks and
// is not read again, so the warning must move with it: it was cleared from the old path and never set on the new one,
// and the status page stopped showing a problem the note still has.
import { renameSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { fileStatusLines } from '../helpers/file-statuses.js';

t.test('a renamed note with malformed frontmatter keeps its warning at its new path', async (t) => {
  const v = makeVault({
    'Inbox/bad-fm.md': '---\ntitle: [unclosed\n---\n# Body survives\n\nThe zebra crossing is findable.\n',
    'Inbox/good.md': '# Good\n\nThe walrus sings about chowder.\n',
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const statuses = () => fileStatusLines(cfg);
  t.same(statuses(), ['Inbox/bad-fm.md indexed frontmatter_invalid']);

  // in its own folder, as an editor renames: a new folder's own event could come first and be read as a new note
  const renamed = d.daemon.nextDone('Inbox/malformed.md', 'renamed');
  renameSync(path.join(v.dir, 'Inbox/bad-fm.md'), path.join(v.dir, 'Inbox/malformed.md'));
  const done = await renamed;
  t.ok(done.state, 'stored as a rename: the note is not read again');
  await d.daemon.whenCaughtUp();
  t.same(statuses(), ['Inbox/malformed.md indexed frontmatter_invalid'], 'the warning moved with the note');
  t.equal((await d.search('zebra crossing', { mode: 'bm25' })).results[0]?.path, 'Inbox/malformed.md');
});
