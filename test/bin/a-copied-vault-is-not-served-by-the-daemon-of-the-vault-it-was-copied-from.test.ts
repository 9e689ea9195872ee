// A vault folder copied while its daemon runs carries `.memvault/daemon.json` along: the copy's commands must work on
// the copy, not call the original's daemon (searches answered from the other vault, `index` skipped as "already
// indexed by a daemon", a reindex rebuilding the other vault's index).
import { cpSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli, startCli } from '../helpers/run-cli.js';

t.test('a copied vault is not served by the daemon of the vault it was copied from', async (t) => {
  const v = makeVault({ 'Inbox/otters.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup()); // removes the copy too: it sits beside the vault
  t.equal((await cli(['index', '--vault', v.dir])).code, 0, 'the original is indexed');
  const { child, url, exited } = await startCli(t, v.dir);

  const copy = path.join(path.dirname(v.dir), 'vault-copy');
  cpSync(v.dir, copy, { recursive: true, preserveTimestamps: true }); // cp -a, daemon.json and token included
  v.write('../vault-copy/Inbox/beavers.md', '# Beavers\n\nBeavers build dams across the stream.\n');

  const idx = await cli(['index', '--vault', copy]);
  t.equal(idx.code, 0, idx.stderr);
  t.match(idx.stdout, /^indexed .* files processed/, 'the copy is indexed, not skipped as served by a daemon');
  t.match(idx.stderr, `memvault: ignoring the daemon at ${url}: it serves `, 'a note says which daemon was ignored and why');

  const s = await cli(['search', '--vault', copy, '--json', 'beavers building dams']);
  t.equal(s.code, 0, 'search on the copy exits 0');
  t.equal(JSON.parse(s.stdout).results[0]?.path, 'Inbox/beavers.md', "the copy's own note answers");
  const st = JSON.parse((await cli(['status', '--vault', copy, '--json'])).stdout);
  t.equal(st.daemon, null, 'no daemon serves the copy');
  t.equal(st.index.documents, 2, "the copy's index: both notes");

  // the original keeps its daemon, and its index never saw the copy's note
  const orig = JSON.parse((await cli(['status', '--vault', v.dir, '--json'])).stdout);
  t.equal(orig.daemon, url, 'the original is still served by its daemon');
  t.equal(orig.index.documents, 1, "the original's index: its one note");
  child.kill('SIGTERM');
  t.same(await exited, [0, null], 'the original daemon stops cleanly');
});
