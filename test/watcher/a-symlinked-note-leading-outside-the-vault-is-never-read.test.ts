// A symlink in the vault to a file outside it (a secret beside the vault, /etc/passwd) is recorded as a failed file
// with reason `outside_vault` and never read into the index — at start-up and when it appears later — while a
// symlink to a note inside the vault is still followed.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { fileStates, openDirect } from '../../bin/direct.js';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('symlinks out of the vault are refused as outside_vault and their text never reaches search', async (t) => {
  const v = makeVault({ 'Inbox/good.md': '# Good\n\nThe heron waits by the weir.\n' });
  t.teardown(() => v.cleanup());
  const outside = path.join(path.dirname(v.dir), 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.md'), '# Secret\n\nThe password is quokkasecret42.\n');
  symlinkSync('../../outside/secret.md', path.join(v.dir, 'Inbox/leak.md'));
  symlinkSync('/etc/passwd', path.join(v.dir, 'Inbox/passwd.md'));
  symlinkSync('good.md', path.join(v.dir, 'Inbox/inlink.md'));
  const cfg = testConfig(v.dir, 'writes:\n  enabled: false\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();

  const later = d.daemon.nextDone('Inbox/later.md', 'failed');
  symlinkSync(path.join(outside, 'secret.md'), path.join(v.dir, 'Inbox/later.md'));
  symlinkSync('../../outside', path.join(v.dir, 'Inbox/outdir')); // a folder out: never walked
  await later;
  await d.daemon.whenCaughtUp();

  const view = openDirect(cfg)!;
  t.teardown(() => view.close());
  const states = new Map((await fileStates(cfg, view)).map((f) => [f.path, f]));
  for (const p of ['Inbox/leak.md', 'Inbox/passwd.md', 'Inbox/later.md'])
    t.match(states.get(p), { state: 'failed', reason: 'outside_vault' }, `${p} is refused`);
  t.match(states.get('Inbox/inlink.md'), { state: 'indexed' }, 'a symlink to a note inside the vault is followed');
  for (const mode of ['bm25', 'hybrid']) {
    const r = await d.search('quokkasecret42 password', { mode, k: 20 });
    t.notOk(JSON.stringify(r.results).includes('quokkasecret42'), `${mode}: the secret's text is not in the index`);
  }
  t.notOk(
    JSON.stringify((await d.search('root daemon nologin bin bash', { mode: 'bm25' })).results).includes('nologin'),
    '/etc/passwd is not in the index',
  );
});
