// The owner token names its caller with X-Memvault-Agent, but not after the daemon's own jobs: a write recorded as
// `dream` would be taken for a dream run's commit (`memvault undo --run` undoes those), one as `memvault-scheduler`
// for the scheduler's. Such a header is refused, before any work; `agent` and `cli` (the owner's own) still work.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CURATION_AGENT } from '../../../actors/git-writer/curation-writes.js';
import { DREAM_AGENT } from '../../../actors/dream/run.js';
import { SLEEP_AGENT } from '../../../actors/scheduler/sleep/run.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { commits } from './helpers.js';

t.test("an owner-token caller cannot name itself after the daemon's own writers", async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  for (const name of [DREAM_AGENT, 'Dream', SLEEP_AGENT, CURATION_AGENT, 'backfill', 'status-page', 'anonymous']) {
    const file = `Inbox/As-${name}.md`;
    const r = await s.d.tool('vault_write', { path: file, content: '# Not mine\n' }, name);
    t.equal(r.status, 403, `X-Memvault-Agent: ${name} is refused`);
    t.equal(r.body.error?.reason, 'forbidden');
    t.match(r.body.error?.message, /reserved/);
    t.notOk(existsSync(path.join(s.v.dir, file)), 'and nothing was written');
  }
  t.notOk(
    commits(s.v.dir).some((c) => c.agent?.toLowerCase() === DREAM_AGENT),
    'no commit is recorded as the dream',
  );
  for (const name of ['cli', 'agent', 'claude-code']) {
    const r = await s.d.tool('vault_write', { path: `Inbox/By-${name}.md`, content: '# Mine\n' }, name);
    t.equal(r.status, 200, `X-Memvault-Agent: ${name} still writes`);
    t.equal(commits(s.v.dir)[0]!.agent, name);
  }
});
