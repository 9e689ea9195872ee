// An agent's write comes back from the OS watcher as a work-tree change; the git writer knows it for its own and does
// not queue it as a person's edit (which cost a "nothing to commit" git pass per write), while a person's edit is.
import t from 'tap';
import { worktreeChange, counted } from './helpers/worktree-changes.js';
import { daemonOn } from '../helpers/daemon.js';
import { call, mcpClient } from '../gateway/tools/helpers/tool-daemon.js';

t.test('the echo of an agent write counts as own, a person’s edit as theirs', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n' }, 'writes:\n  human_quiet_ms: 50\n');
  const client = await mcpClient(d.url, d.token, 'echo-bot');
  t.teardown(() => client.close());

  const echoed = worktreeChange(d, 'Inbox/agent.md');
  const w = await call(client, 'vault_write', { path: 'Inbox/agent.md', content: '# Agent\n\nwritten by an agent\n' });
  t.equal(w.isError, false, w.text);
  await echoed;
  await d.daemon.handles.git!.onIdle(); // the git writer has handled the change
  let m = String((await d.api('GET', '/metrics')).body);
  t.ok(counted(m, 'own') >= 1, 'the agent write came back and was recognised as ours');
  t.equal(counted(m, 'person'), 0, 'nothing was queued as a person’s edit');

  const edited = worktreeChange(d, 'Inbox/agent.md');
  v.write('Inbox/agent.md', '# Agent\n\nand then a person edited it\n');
  await edited;
  await d.daemon.handles.git!.onIdle();
  m = String((await d.api('GET', '/metrics')).body);
  t.ok(counted(m, 'person') >= 1, 'the person’s edit of the same note is theirs');
});
