// A note that failed to index and is then deleted takes its failure with it. The status page lists the index's file
// statuses as they are, and a failure for a file that is gone stayed there for good: the watcher sent no delete for a
// path the index held no document for. Deleted while the daemon runs, and while it was down (the next start's
// reconcile clears it); the good note is untouched.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { fileStatusLines } from '../helpers/file-statuses.js';

t.test('a failed note deleted, live and while the daemon was down, leaves no status entry', async (t) => {
  const v = makeVault({
    'Inbox/good.md': '# Good\n\nThe walrus sings about chowder.\n',
    'Inbox/latin1.md': Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n')]),
    'Inbox/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02, 0x00, 0xff, 0x10, 0x00]),
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const first = await startDaemon(cfg);
  t.teardown(() => first.stop());
  await first.daemon.whenCaughtUp();
  t.same(fileStatusLines(cfg), ['Inbox/binary.md failed binary', 'Inbox/latin1.md failed not_utf8'], 'both failures listed');

  const deleted = first.daemon.nextDone('Inbox/latin1.md', 'deleted');
  rmSync(path.join(v.dir, 'Inbox/latin1.md'));
  await deleted;
  t.same(fileStatusLines(cfg), ['Inbox/binary.md failed binary'], 'deleted while the daemon runs: its failure goes with it');

  await first.stop();
  rmSync(path.join(v.dir, 'Inbox/binary.md'));
  const second = await startDaemon(cfg);
  t.teardown(() => second.stop());
  await second.daemon.whenCaughtUp();
  t.same(fileStatusLines(cfg), [], 'deleted while the daemon was down: the next start clears its failure');
  t.equal((await second.search('walrus chowder', { mode: 'bm25' })).results[0]?.path, 'Inbox/good.md', 'the good note stays');
});
