// The git writer hears of a person's edits from the OS watcher's events. Some edits come with none: those made while
// the vault is watched afresh (a new folder makes main drop its subscription and make a new one), or through a hard
// link from outside the vault (inotify reports a change only under the name it was made by). git status still shows
// them, so a new watch and POST /v1/reconcile ask the git writer to look: they are committed as the person.
import { appendFileSync, linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git, httpCall, within } from '../helpers/daemon.js';

t.test('an edit no event reported is committed as the person after a reconcile, and after a new folder', async (t) => {
  const { v, d } = await daemonOn(
    t,
    { 'Inbox/linked.md': '# Linked\n\nfirst line\n', 'Inbox/other.md': '# Other\n\nsecond note\n' },
    'writes:\n  human_quiet_ms: 100\n',
  );
  const outside = mkdtempSync(path.join(os.tmpdir(), 'memvault-links-'));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  linkSync(path.join(v.dir, 'Inbox/linked.md'), path.join(outside, 'linked.md'));
  linkSync(path.join(v.dir, 'Inbox/other.md'), path.join(outside, 'other.md'));
  const committedAs = (file: string) =>
    new Promise<string>((resolve) => {
      const off = d.daemon.onRouted((m) => {
        if (m.type === 'main.committed' && m.kind === 'human' && m.paths.includes(file)) {
          off();
          resolve(m.sha);
        }
      });
    });

  // through the link: the file in the vault changed, and no event said so
  const first = committedAs('Inbox/linked.md');
  appendFileSync(path.join(outside, 'linked.md'), 'a line added through a hard link\n');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), 'M Inbox/linked.md', 'git sees the change');
  const reconcile = await httpCall(d.url, 'POST', '/v1/reconcile', {}, { token: d.token });
  t.equal(reconcile.status, 202);
  const sha = await within(first, 20_000, 'the person-commit after POST /v1/reconcile');
  t.equal(git(v.dir, 'log', '-1', '--format=%an', sha).trim(), 'vault owner', 'committed as the person');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'and the work tree is clean');

  // again, and then a new folder: the vault is watched afresh, and git status is read once more
  const second = committedAs('Inbox/other.md');
  appendFileSync(path.join(outside, 'other.md'), 'another line through the link\n');
  mkdirSync(path.join(v.dir, 'Projects'));
  await within(second, 20_000, 'the person-commit after the vault is watched afresh');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'clean again');
});
