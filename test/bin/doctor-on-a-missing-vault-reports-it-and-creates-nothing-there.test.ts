// `memvault doctor --vault` on a folder that is not there: it fails the vault check and leaves the folder missing, so
// the next run fails it again (it used to make `<vault>/.memvault/models/` with a copy of the model).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { memvault as cli } from '../helpers/run-cli.js';

t.test('doctor on a missing vault reports it and creates nothing there', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const missing = path.join(root, 'no-such-vault');
  for (const run of ['first', 'second']) {
    const r = await cli(['doctor', '--vault', missing]);
    t.equal(r.code, 1, `${run} run exits 1`);
    t.match(r.stdout, new RegExp(`\\nFAIL\\s+vault\\s+${missing} is not a folder\\n`), `${run} run fails the vault check`);
    t.match(r.stdout, /\nok\s+model\s+use-lite /, `${run} run still checks the model`);
    t.notOk(existsSync(missing), `the vault is still missing after the ${run} run`);
  }
});
