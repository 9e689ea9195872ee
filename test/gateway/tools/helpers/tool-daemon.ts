// Tool test harness: a real daemon on a temp vault (its real git writer answers the writes), and real MCP clients —
// the SDK's Client over Streamable HTTP to the daemon's /mcp.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../../../config/load.js';
import { writeDaemonInfo } from '../../../../bin/client.js';
import { makeVault, REPO, startDaemon, testConfig, type Running, type TestVault } from '../../../helpers/daemon.js';
import { WriteRequests } from './write-requests.js';

/** Every tool a client with write scope lists (README, "Agent tools"), sorted by name. */
export const EVERY_TOOL = [
  'memory_add_fact',
  'memory_context',
  'memory_delete_fact',
  'memory_facts',
  'memory_forget',
  'memory_invalidate_fact',
  'memory_remember',
  'memory_search',
  'memory_timeline',
  'vault_link',
  'vault_list',
  'vault_read',
  'vault_undo_last',
  'vault_write',
];

/**
 * Settings for tool tests: like test/helpers testConfig, with the log level chosen (stdio tests read the child's log
 * lines from stderr).
 */
export function toolConfig(vault: string, opts: { logLevel?: string; extra?: string; writes?: boolean } = {}): Config {
  // `extra` holds more `writes:` settings, indented under it
  return testConfig(vault, `writes:\n  enabled: ${opts.writes ?? true}\n${opts.extra ?? ''}\n`, { logLevel: opts.logLevel });
}

export interface ToolDaemon {
  v: TestVault;
  d: Running;
  writes: WriteRequests;
  cfg: Config;
  stop(): Promise<void>;
}

export async function startToolDaemon(files: Record<string, string | Buffer>, opts: { extra?: string } = {}): Promise<ToolDaemon> {
  const v = makeVault(files);
  const cfg = toolConfig(v.dir, opts);
  const d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const writes = new WriteRequests(d.daemon);
  return {
    v,
    d,
    writes,
    cfg,
    async stop() {
      writes.stop();
      await d.stop();
      v.cleanup();
    },
  };
}

export async function mcpClient(url: string, token: string | null, agent?: string, name = 'tool-test-client'): Promise<Client> {
  const headers: Record<string, string> = {};
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (agent !== undefined) headers['x-memvault-agent'] = agent;
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
  return client;
}

/**
 * An SDK client of `memvault mcp` on stdio (a child process, as an agent's host runs it), which finds the tool daemon
 * `s` through the daemon.json written here; closed at teardown.
 */
export async function stdioClient(
  t: { teardown(fn: () => unknown): void },
  s: ToolDaemon,
  name: string,
  stderr: 'pipe' | 'ignore' = 'pipe',
): Promise<Client> {
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin/memvault'), 'mcp', '--config', s.cfg.config_file!, '--vault', s.v.dir],
    env: getDefaultEnvironment(),
    stderr,
  });
  const client = new Client({ name, version: '1.0.0' });
  t.teardown(() => client.close());
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its structured result (any: tests look into it). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; body: any; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = r.content[0];
  return { isError: r.isError === true, body: r.structuredContent, text: first?.type === 'text' ? first.text : '' };
}
