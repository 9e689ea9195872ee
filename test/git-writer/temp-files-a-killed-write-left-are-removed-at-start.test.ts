// A write killed between creating its temp file and renaming it over the note leaves `.<name>.<hex>.tmp` behind:
// the git writer removes such litter when it starts (found by the kill -9 crash cycles), and nothing else.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test(
  'temp files of atomic writes cut short by a crash are gone after start; notes and look-alikes stay',
  { timeout: 120_000 },
  async (t) => {
    const v = makeVault({ 'Inbox/a.md': '# A\n\nthe note as it was before the crash\n' });
    t.teardown(() => v.cleanup());
    // the first start makes the repository and imports the note
    let d = await startDaemon(testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n'));
    await d.daemon.whenCaughtUp();
    await d.stop();

    v.write('Inbox/.a.md.0123456789ab.tmp', '# A\n\nthe new text, torn by the ki'); // what kill -9 mid-write leaves
    v.write('Projects/deep/er/.b c.md.fedcba987654.tmp', '');
    v.write('Inbox/.a.md.backup.tmp', 'a person’s own file: not our name pattern');
    t.equal(
      git(v.dir, 'status', '--porcelain', '--untracked-files=all').trim().split('\n').length,
      3,
      'git sees the litter before the restart',
    );

    d = await startDaemon(testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n'));
    t.teardown(() => d.stop());
    await d.daemon.whenCaughtUp();
    // a write goes through the git writer, so its start (and the clean-up) has finished
    const w = await d.api('POST', '/v1/tools/vault_write', { path: 'Inbox/after.md', content: '# After\n\nwritten after the restart\n' });
    t.equal(w.status, 200, JSON.stringify(w.body));

    t.notOk(existsSync(path.join(v.dir, 'Inbox/.a.md.0123456789ab.tmp')), 'the temp file of the killed write is removed');
    t.notOk(existsSync(path.join(v.dir, 'Projects/deep/er/.b c.md.fedcba987654.tmp')), 'in nested folders too');
    t.equal(
      readFileSync(path.join(v.dir, 'Inbox/a.md'), 'utf8'),
      '# A\n\nthe note as it was before the crash\n',
      'the note keeps its old bytes',
    );
    t.ok(existsSync(path.join(v.dir, 'Inbox/.a.md.backup.tmp')), 'a file that only looks similar is left alone');
    t.equal(
      git(v.dir, 'status', '--porcelain', '--untracked-files=all').trim(),
      '?? Inbox/.a.md.backup.tmp',
      'only the person’s own file is untracked',
    );
  },
);
