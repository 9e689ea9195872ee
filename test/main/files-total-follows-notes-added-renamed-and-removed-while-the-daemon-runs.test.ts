// `files_total` in /v1/status (and `memvault status`) was set only by the boot reconcile: a note added while the
// daemon ran left it one short, a note removed one over, until the next start. The watcher now counts the notes on
// disk as it sees them, so it follows adds, renames and deletes.
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

t.test('files_total follows notes added, renamed and removed while the daemon runs', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/a.md': '# A\n\nApples.\n', 'Inbox/b.md': '# B\n\nBananas.\n' });
  const total = async () => (await d.api('GET', '/v1/status')).body.index.files_total as number;
  t.equal(await total(), 2, 'the reconcile counted two notes');

  let done = d.daemon.nextDone('Inbox/c.md', 'indexed');
  v.write('Inbox/c.md', '# C\n\nCherries.\n');
  await done;
  t.equal(await total(), 3, 'a note written while the daemon runs is counted');

  done = d.daemon.nextDone('Inbox/c-2026.md', 'renamed');
  renameSync(path.join(v.dir, 'Inbox/c.md'), path.join(v.dir, 'Inbox/c-2026.md'));
  await done;
  t.equal(await total(), 3, 'a rename neither adds nor removes one');

  done = d.daemon.nextDone('Inbox/a.md', 'deleted');
  rmSync(path.join(v.dir, 'Inbox/a.md'));
  await done;
  t.equal(await total(), 2, 'a deleted note is no longer counted');

  done = d.daemon.nextDone('Inbox/b.md', 'deleted');
  rmSync(path.join(v.dir, 'Inbox/b.md'));
  await done;
  t.equal(await total(), 1);
  t.equal((await d.api('GET', '/v1/status')).body.index.documents, 1, 'as many as the index holds');
});
