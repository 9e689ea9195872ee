// onnxruntime-node's Linux build records telemetry under the user's cache folder, tries to send it, and leaves a debug
// file in /tmp, unless ORT_DISABLE_TELEMETRY is set (actors/embedder/onnxruntime-telemetry.ts sets it). `memvault
// index` embeds every note on onnxruntime sessions: run it with a home and a cache folder of its own and the variable
// unset, and nothing may appear in either, nor a /tmp/mat-debug-<pid>.log for its process.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

t.test('memvault index embeds every note and leaves no onnxruntime telemetry behind', async (t) => {
  const v = makeVault({}, { copyExample: true });
  t.teardown(() => v.cleanup());
  const home = mkdtempSync(path.join(os.tmpdir(), 'memvault-home-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  // unset in the child (child_process leaves out undefined values), whatever this process has set
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), ORT_DISABLE_TELEMETRY: undefined };

  const index = await memvault(['index', '--vault', v.dir], env);
  t.equal(index.code, 0, index.stderr);
  const status = JSON.parse((await memvault(['status', '--vault', v.dir, '--json'], env)).stdout);
  t.ok(status.index.vectors > 0 && status.index.vectors === status.index.chunks, 'every chunk was embedded');

  t.same(readdirSync(home), [], 'nothing written under HOME or XDG_CACHE_HOME');
  for (const dir of new Set(['/tmp', os.tmpdir()]))
    t.notOk(existsSync(path.join(dir, `mat-debug-${index.pid}.log`)), `no mat-debug log of the process in ${dir}`);
});
