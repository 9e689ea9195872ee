// MCP over stdio for agents that spawn a command: a local MCP server on stdin/stdout that forwards tools/list and
// tools/call to a daemon's /mcp (an SDK client over Streamable HTTP), so stdio and HTTP agents share one gateway.
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { passOn, RpcError, toCallToolResult } from './mcp-server.js';
import { sanitiseAgent, type ToolError } from './types.js';

export interface Upstream {
  url: string; // the daemon's base URL, e.g. http://127.0.0.1:7411
  token: string;
}

export interface StdioProxyOptions {
  /** The daemon to forward to; may still be starting (calls wait for it). */
  upstream: Promise<Upstream>;
  /** `--agent NAME`; without it, the connecting MCP client's own name (clientInfo.name). */
  agent?: string | undefined;
  version: string;
  /** What MCP clients are told at initialize (the same text the daemon's /mcp gives). */
  instructions: string;
  stdin?: Readable;
  stdout?: Writable;
  /** A vault_write with wait_indexed waits for the git writer and the index: allow for both. */
  callTimeoutMs?: number;
  /** Told about every failure to reach the daemon (the caller logs it; the agent gets `unavailable`). */
  onError?: (what: string, err: unknown) => void;
}

export interface StdioProxy {
  /** Resolves when the stdio peer goes away (stdin ends) or close() is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The daemon's own refusal of a call, answered before any work with a status and `{"error": {"reason", "message"}}`
 * rather than MCP (429 rate_limited, 401 unauthorized once the token is revoked), or a JSON-RPC error for a body over
 * its cap (413): the SDK client throws it as an HTTP error holding the body, which said `unavailable` ("did not reach
 * the daemon") when it had reached it.
 */
function daemonRefusal(err: unknown): ToolError | null {
  if (!(err instanceof StreamableHTTPError)) return null;
  const at = err.message.indexOf('{');
  if (at < 0) return null;
  try {
    const e = (JSON.parse(err.message.slice(at)) as { error?: { reason?: unknown; message?: unknown } }).error;
    if (typeof e?.message !== 'string') return null;
    if (typeof e.reason === 'string') return { reason: e.reason as ToolError['reason'], message: e.message };
    return err.code === 413 ? { reason: 'too_large', message: `the call's ${e.message}` } : null;
  } catch {
    return null;
  }
}

export async function runStdioProxy(o: StdioProxyOptions): Promise<StdioProxy> {
  const server = new Server({ name: 'memvault', version: o.version }, { capabilities: { tools: {} }, instructions: o.instructions });
  let client: Promise<Client> | null = null;
  let upstreamClient: Client | null = null;
  const upstream = (): Promise<Client> => {
    client ??= (async () => {
      const up = await o.upstream;
      const agent = sanitiseAgent(o.agent ?? server.getClientVersion()?.name);
      const c = new Client({ name: `memvault-stdio-proxy/${agent}`, version: o.version });
      const t = new StreamableHTTPClientTransport(new URL('/mcp', up.url), {
        requestInit: { headers: { authorization: `Bearer ${up.token}`, 'x-memvault-agent': agent, 'x-memvault-transport': 'stdio' } },
      });
      await c.connect(t);
      upstreamClient = c;
      return c;
    })();
    // a failed connect is not remembered: the next call tries again (the daemon may have come up meanwhile)
    client.catch(() => {
      client = null;
    });
    return client;
  };
  const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const report = (what: string, err: unknown) => o.onError?.(what, err);

  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    try {
      return await (await upstream()).listTools(req.params);
    } catch (err) {
      if (err instanceof McpError) throw passOn(err);
      report('tools/list', err);
      throw new RpcError(ErrorCode.InternalError, `the memvault daemon is unreachable: ${why(err)}`);
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    let c: Client;
    try {
      c = await upstream();
    } catch (err) {
      const refused = daemonRefusal(err);
      if (refused) return toCallToolResult({ ok: false, error: refused });
      report('connect', err);
      return toCallToolResult({ ok: false, error: { reason: 'unavailable', message: `the memvault daemon is unreachable: ${why(err)}` } });
    }
    try {
      return await c.callTool(req.params, undefined, { timeout: o.callTimeoutMs ?? 120_000 });
    } catch (err) {
      if (err instanceof McpError) throw passOn(err); // the daemon's own protocol error (unknown tool, …) passes through
      const refused = daemonRefusal(err);
      if (refused) return toCallToolResult({ ok: false, error: refused });
      report(`tools/call ${req.params.name}`, err);
      return toCallToolResult({
        ok: false,
        error: { reason: 'unavailable', message: `the call did not reach the memvault daemon: ${why(err)}` },
      });
    }
  });

  const stdin = o.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, o.stdout ?? process.stdout);
  let done!: () => void;
  const closed = new Promise<void>((r) => (done = r));
  server.onclose = () => done();
  const close = async () => {
    await upstreamClient?.close().catch(() => {});
    await server.close();
    done();
  };
  stdin.once('end', () => void close());
  stdin.once('close', () => void close());
  await server.connect(transport);
  return { closed, close };
}
