// `memvault mcp --token-file F` forwards each call to the daemon's /mcp, which refuses an agent over its rate (429) or
// holding a revoked token (401) before any work, with `{"error": {"reason", "message"}}` rather than MCP. The proxy
// took that for a daemon it could not reach: the agent got `unavailable`, "the call did not reach the memvault
// daemon: Streamable HTTP error: …" (and a warning in the log that the daemon did not answer). It now passes the
// daemon's reason and message on as the call's tool error, as an agent on /mcp reads them from the body.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { revokeAgent } from '../../../actors/gateway/agents/store.js';
import { REPO } from '../../helpers/daemon.js';
import { writeDaemonInfo } from '../../../bin/client.js';
import { call, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent } from './helpers.js';

t.test('a stdio agent over its rate, then revoked, gets rate_limited and unauthorized', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => s.stop());
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const tokenFile = path.join(path.dirname(s.v.dir), 'slow.token');
  writeFileSync(tokenFile, `${agent(s.cfg.data_dir, 'slow', { scope: 'read', rate: '1/h' })}\n`, { mode: 0o600 });

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin/memvault'), 'mcp', '--config', s.cfg.config_file!, '--vault', s.v.dir, '--token-file', tokenFile],
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-slow-client', version: '1.0.0' });
  t.teardown(() => client.close());
  await client.connect(transport);

  t.match((await call(client, 'vault_read', { path: 'Inbox/Heron.md' })).body, { content: '# Heron\n' }, 'its one call an hour');
  t.match(
    await call(client, 'vault_read', { path: 'Inbox/Heron.md' }),
    { isError: true, body: { error: { reason: 'rate_limited', message: /^slow is over its rate of 1\/h; retry in \d+ s$/ } } },
    "the next is rate_limited, in the daemon's words",
  );
  t.equal(revokeAgent(s.cfg.data_dir, 'slow', new Date()).ok, true);
  t.match(
    await call(client, 'vault_list', {}),
    { isError: true, body: { error: { reason: 'unauthorized', message: /^this token was revoked/ } } },
    'a revoked token is unauthorized',
  );
});
