// A vault indexed by the default (fp32) model, then a daemon started over it configured for the int8 model: the
// index records another model than the daemon's (model_mismatch until a reindex).
import type { Test } from 'tap';
import { makeVault, startDaemon, testConfig } from './daemon.js';

export async function int8DaemonOverFp32Index(t: Test, files: Record<string, string>) {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const first = await startDaemon(testConfig(v.dir));
  await first.daemon.whenCaughtUp();
  await first.stop();
  const int8 = testConfig(v.dir, 'embedder:\n  quantize: int8\n');
  const d = await startDaemon(int8);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  return { v, int8, d };
}
