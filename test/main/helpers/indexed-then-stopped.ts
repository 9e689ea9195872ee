// A vault of 30 glaze notes indexed by a daemon, with a task in its episode journal, the daemon stopped again: what
// the damaged-index tests damage and then expect back whole.
import type { Test } from 'tap';
import { makeVault, startDaemon, testConfig } from '../../helpers/daemon.js';

export const GLAZE_NOTES: Record<string, string> = {};
for (let i = 0; i < 30; i++) GLAZE_NOTES[`Projects/p${i}.md`] = `# P${i}\n\nThe glaze batch g${i}q fires at cone six.\n`;

export async function indexedThenStopped(t: Test) {
  const v = makeVault(GLAZE_NOTES);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const e = await d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'task', task_id: 'T-1', title: 'Order the kiln shelf q7q', status: 'open' }],
  });
  t.equal(e.status, 200, JSON.stringify(e.body));
  await d.daemon.whenCaughtUp();
  await d.stop();
  return { v, cfg };
}
