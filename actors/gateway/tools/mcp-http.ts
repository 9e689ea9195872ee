// MCP over Streamable HTTP at /mcp, stateless: each POST gets a fresh server and transport, answered as JSON.
// Tool calls are independent request/response pairs, so sessions would buy nothing but state to expire, and a
// gateway restart (the supervisor's job) would strand every client on "session not found"; the tool list is
// computed per request, so it always reflects whether writes are available now.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { readJsonBody, sendJson } from '../http-body.js';
import { buildMcpServer } from './mcp-server.js';
import { sanitiseAgent, type CallContext, type ToolServer } from './types.js';
import type { Principal } from '../agents/store.js';

/**
 * Who is calling: the principal the token resolved to (an agent's own name; for the owner token, `X-Memvault-Agent`,
 * sanitised, default `agent`); the stdio proxy marks itself `X-Memvault-Transport: stdio`.
 */
export function mcpCallContext(req: IncomingMessage, principal?: Principal): CallContext {
  return {
    agent: principal?.name ?? sanitiseAgent(req.headers['x-memvault-agent']),
    transport: req.headers['x-memvault-transport'] === 'stdio' ? 'stdio' : 'mcp',
    ...(principal ? { principal } : {}),
  };
}

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: unknown = null,
): number {
  sendJson(
    res,
    status,
    { jsonrpc: '2.0', error: { code, message }, id: typeof id === 'string' || typeof id === 'number' ? id : null },
    headers,
  );
  return status;
}

/**
 * Why a single tools/call message has unusable `arguments` (not an object), or null. The SDK would answer it with
 * -32603 "internal error" from its schema check; it is the caller's mistake, so it gets -32602 invalid params.
 */
function badToolArguments(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { method?: unknown; params?: { arguments?: unknown } | null };
  if (m.method !== 'tools/call' || m.params === null || typeof m.params !== 'object') return null;
  const a = m.params.arguments;
  if (a === undefined || (a !== null && typeof a === 'object' && !Array.isArray(a))) return null;
  return `params.arguments must be an object of the tool's arguments, got ${a === null ? 'null' : Array.isArray(a) ? 'an array' : typeof a}`;
}

/** Whether a JSON-RPC message (or a batch) calls a tool: what an agent's rate is spent on. */
function callsATool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call');
}

/**
 * Serves one request to /mcp (the caller has checked the bearer token). `parsedBody`: the JSON body if the caller
 * already read it. Resolves with the HTTP status sent.
 */
export async function handleMcpRequest(
  tools: ToolServer,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
  principal?: Principal,
  /** Spends the caller's rate for a message that calls a tool; false: refused, and already answered (429). */
  spendCall?: () => boolean,
): Promise<number> {
  const ctx = mcpCallContext(req, principal);
  const status = await serve();
  tools.metrics.requests.inc({ transport: ctx.transport, status: String(status) });
  return status;

  async function serve(): Promise<number> {
    if (req.method !== 'POST')
      // stateless: no server-to-client stream to GET, no session to DELETE
      return rpcError(res, 405, -32000, `${req.method} is not supported: this MCP endpoint is stateless; POST JSON-RPC messages to /mcp`, {
        allow: 'POST',
      });
    let body = parsedBody;
    if (body === undefined) {
      const read = await readJsonBody(req, tools.maxBodyBytes);
      if (!read.ok)
        return read.error.reason === 'too_large'
          ? rpcError(res, 413, -32600, read.error.message)
          : rpcError(res, 400, -32700, `parse error: ${read.error.message}`);
      body = read.result.body;
    }
    if (spendCall && callsATool(body) && !spendCall()) return 429;
    const bad = badToolArguments(body);
    if (bad !== null) return rpcError(res, 200, -32602, bad, {}, (body as { id?: unknown }).id);
    const server = buildMcpServer(tools, ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return res.statusCode;
  }
}
