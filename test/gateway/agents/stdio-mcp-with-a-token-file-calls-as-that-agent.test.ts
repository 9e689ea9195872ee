// `memvault mcp --token-file F` speaks MCP on stdio as the agent whose token is in F: the running daemon lists it the
// tools of its scope, refuses what its grant does not allow, and records its writes under its own name.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from '../../helpers/daemon.js';
import { writeDaemonInfo } from '../../../bin/client.js';
import { call, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, commits } from './helpers.js';

t.test('stdio MCP with --token-file acts as that agent', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n\nThe grey heron fishes at dawn.\n' });
  t.teardown(() => s.stop());
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const tokenFile = path.join(path.dirname(s.v.dir), 'clerk.token');
  writeFileSync(tokenFile, `${agent(s.cfg.data_dir, 'clerk', { scope: 'write', folders: ['Inbox'] })}\n`, { mode: 0o600 });

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      path.join(REPO, 'bin/memvault'),
      'mcp',
      '--config',
      s.cfg.config_file!,
      '--vault',
      s.v.dir,
      '--token-file',
      tokenFile,
      '--agent',
      'posing',
    ],
    env: { ...getDefaultEnvironment() },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-agent-client', version: '1.0.0' });
  t.teardown(() => client.close());
  await client.connect(transport);
  t.equal((await client.listTools()).tools.length, 14, 'a write credential lists all fourteen tools');
  t.match((await call(client, 'vault_write', { path: 'Inbox/Egret.md', content: '# Egret\n' })).body, { op: 'write' });
  t.equal(commits(s.v.dir)[0]!.agent, 'clerk', 'recorded as the credential, not --agent or the client name');
  t.match((await call(client, 'vault_write', { path: 'People/Egret.md', content: '# Egret\n' })).body, {
    error: { reason: 'forbidden' },
  });
});
