// A note whose on-disk name cannot be keyed as it is (not NFC, or holding a backslash) gets a status entry with
// reason `unsupported_name` — at start-up and when it appears later — instead of silently never being indexed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { fileStates, openDirect } from '../../bin/direct.js';
import { vaultPath } from '../../messages/common.js';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('odd names are reported as unsupported_name', async (t) => {
  const v = makeVault({
    'Inbox/cafe\u0301 at start.md': '# NFD\n',
    'Inbox/back\\slash at start.md': '# Backslash\n',
    'Inbox/caf\u00e9 nfc.md': '# NFC\n',
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  enabled: false\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const later = ['Inbox/cafe\u0301 later.md', 'Inbox/back\\slash later.md'];
  const done = later.map((p) => d.daemon.nextDone(vaultPath(p), 'failed'));
  for (const p of later) writeFileSync(path.join(v.dir, p), '# Later\n');
  await Promise.all(done);

  const view = openDirect(cfg)!;
  t.teardown(() => view.close());
  const statuses = new Map(view.reader.fileStatuses().map((s) => [s.path, s]));
  const states = new Map((await fileStates(cfg, view)).map((f) => [f.path, f]));
  for (const p of ['Inbox/cafe\u0301 at start.md', 'Inbox/back\\slash at start.md', ...later]) {
    t.match(
      statuses.get(vaultPath(p)),
      { state: 'failed', reason: 'unsupported_name', message: /rename the file/ },
      `${JSON.stringify(p)} has a status entry`,
    );
    t.match(states.get(vaultPath(p)), { state: 'failed', reason: 'unsupported_name' }, `${JSON.stringify(p)} shows in status --files`);
  }
  t.match(states.get('Inbox/caf\u00e9 nfc.md'), { state: 'indexed' }, 'an NFC name is indexed as before');
});
