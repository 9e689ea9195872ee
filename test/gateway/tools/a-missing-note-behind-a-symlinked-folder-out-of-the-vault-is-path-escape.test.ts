// vault_read through a symlinked folder that leads out of the vault answers `path_escape` whether or not the file
// exists out there — `not_found` for a missing one would let an agent probe which files exist outside.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from './helpers/tool-daemon.js';

t.test('reads behind a symlink out are path_escape, existing or not', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Plain.md': '# Plain\n' });
  t.teardown(() => s.stop());
  const outside = path.join(path.dirname(s.v.dir), 'outside');
  mkdirSync(path.join(outside, 'sub'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.md'), 'the password is wombat\n');
  symlinkSync('../../outside', path.join(s.v.dir, 'Inbox/outdir'));
  for (const p of ['Inbox/outdir/secret.md', 'Inbox/outdir/missing.md', 'Inbox/outdir/sub/missing.md', 'Inbox/outdir/nope/missing.md']) {
    const r = await s.d.api('POST', '/v1/tools/vault_read', { path: p });
    t.equal(r.status, 403, p);
    t.equal(r.body.error?.reason, 'path_escape', `${p} is path_escape`);
  }
  const missing = await s.d.api('POST', '/v1/tools/vault_read', { path: 'Inbox/missing.md' });
  t.equal(missing.body.error?.reason, 'not_found', 'a missing note inside the vault is still not_found');
});
