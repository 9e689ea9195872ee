// `memvault mcp --vault DIR` speaks MCP on stdio (the SDK's StdioClientTransport spawns it): it forwards to the
// daemon already serving the vault, or starts one in its own process, registers it, and stops it when stdin closes.
import t from 'tap';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO, makeVault } from '../../helpers/daemon.js';
import { lineMatching } from '../../helpers/line-matching.js';
import { daemonInfoFile, findDaemon, writeDaemonInfo } from '../../../bin/client.js';
import { call, startToolDaemon, toolConfig } from './helpers/tool-daemon.js';

function spawnMcp(
  configFile: string,
  vault: string,
  env: Record<string, string> = {},
): { client: Client; transport: StdioClientTransport; errors: Error[] } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin/memvault'), 'mcp', '--config', configFile, '--vault', vault],
    env: { ...getDefaultEnvironment(), ...env }, // what an MCP host passes: not the test runner's NODE_OPTIONS
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test-client', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e); // anything but MCP on stdout shows up here
  return { client, transport, errors };
}

t.test('with a daemon running, stdio calls go to it as transport "stdio"', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n\nThe grey heron fishes at dawn.\n' });
  t.teardown(() => s.stop());
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });

  const { client, transport, errors } = spawnMcp(s.cfg.config_file!, s.v.dir);
  t.teardown(() => client.close());
  await client.connect(transport);
  t.equal((await client.listTools()).tools.length, 14, "the daemon's tools, write tools included");
  const found = await call(client, 'memory_search', { query: 'heron at dawn', k: 1 });
  t.equal(found.body.results[0]?.path, 'Inbox/Heron.md');
  const read = await call(client, 'vault_read', { path: 'Inbox/Heron.md' });
  t.match(read.body, { content: '# Heron\n\nThe grey heron fishes at dawn.\n', indexed: true });
  const miss = await call(client, 'vault_read', { path: 'Inbox/None.md' });
  t.match(miss, { isError: true, body: { error: { reason: 'not_found' } } }, 'errors pass through as tool results');
  await t.rejects(client.callTool({ name: 'nope', arguments: {} }), /unknown tool/, 'protocol errors pass through too');
  const w = await call(client, 'vault_write', { path: 'Inbox/Egret.md', content: '# Egret\n', wait_indexed: true });
  t.match(w.body, { op: 'write', indexed: true });
  t.match(s.writes.seen.at(-1), { agent: 'stdio-test-client' }, "the agent id is the MCP client's name");

  const metrics = String((await s.d.api('GET', '/metrics')).body);
  t.match(metrics, /memvault_tool_calls_total\{tool="memory_search",transport="stdio",outcome="ok"\} 1/);
  await client.close();
  t.same(errors, [], 'nothing but MCP on stdout');
  t.ok(await findDaemon(s.cfg), 'the daemon it used keeps running');
});

t.test('without a daemon, it starts one in its own process and stops it when stdin closes', async (t) => {
  const v = makeVault({ 'Inbox/Heron.md': '# Heron\n\nThe grey heron fishes at dawn.\n' });
  t.teardown(() => v.cleanup());
  const cfg = toolConfig(v.dir, { logLevel: 'info', writes: false });

  const { client, transport, errors } = spawnMcp(cfg.config_file!, v.dir, { MEMVAULT_AGENT: 'night shift' });
  const indexed = lineMatching(transport.stderr as Readable, /"event":"memory_ingest".*"path":"Inbox\/Heron\.md"/);
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((x) => x.name).sort();
  t.same(
    tools,
    ['memory_context', 'memory_facts', 'memory_forget', 'memory_search', 'memory_timeline', 'vault_link', 'vault_list', 'vault_read'],
    'no git writer in this config: read tools only (memory_forget forgets episodes without it)',
  );
  const running = await findDaemon(cfg);
  t.ok(running, 'the in-process daemon is registered, so other commands use it');
  t.match(running?.url, /^http:\/\/127\.0\.0\.1:\d+$/);

  await indexed;
  const logged = lineMatching(
    transport.stderr as Readable,
    /"event":"gateway_request".*"tool":"memory_search".*"agent":"night-shift".*"transport":"stdio"/,
  );
  const found = await call(client, 'memory_search', { query: 'heron at dawn', k: 1 });
  t.equal(found.body.results[0]?.path, 'Inbox/Heron.md');
  t.ok(await logged, 'the call is logged with the agent from MEMVAULT_AGENT, sanitised');
  t.match((await call(client, 'vault_read', { path: 'Inbox/Heron.md' })).body, { path: 'Inbox/Heron.md', sensitive: false });

  const status = await fetch(`${running!.url}/metrics`).then((r) => r.text());
  t.match(status, /memvault_tool_calls_total\{tool="vault_read",transport="stdio",outcome="ok"\} 1/);
  await client.close();
  t.same(errors, [], 'nothing but MCP on stdout');
  t.notOk(existsSync(daemonInfoFile(cfg.data_dir)), 'the daemon stopped and unregistered when stdin closed');
});
