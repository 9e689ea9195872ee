// MCP over Streamable HTTP at /mcp, stateless: each POST gets a fresh server and transport, answered as JSON.
// Tool calls are independent request/response pairs, so sessions would buy nothing but state to expire, and a
// gateway restart (the supervisor's job) would strand every client on "session not found"; the tool list is
// computed per request, so it always reflects whether writes are available now.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolGateway } from './gateway.js';
import { readJsonBody, sendJson } from './http-body.js';
import { buildMcpServer } from './mcp-server.js';
import { sanitiseAgent, type CallContext } from './types.js';

/** Who is calling: `X-Memvault-Agent` (sanitised, default `agent`); the stdio proxy marks itself `X-Memvault-Transport: stdio`. */
export function mcpCallContext(req: IncomingMessage): CallContext {
  return {
    agent: sanitiseAgent(req.headers['x-memvault-agent']),
    transport: req.headers['x-memvault-transport'] === 'stdio' ? 'stdio' : 'mcp',
  };
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): number {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
  return status;
}

/**
 * Serves one request to /mcp (the caller has checked the bearer token). `parsedBody`: the JSON body if the caller
 * already read it. Resolves with the HTTP status sent.
 */
export async function handleMcpRequest(tools: ToolGateway, req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<number> {
  const ctx = mcpCallContext(req);
  const status = await serve();
  tools.metrics.requests.inc({ transport: ctx.transport, status: String(status) });
  return status;

  async function serve(): Promise<number> {
    if (req.method !== 'POST')
      // stateless: no server-to-client stream to GET, no session to DELETE
      return rpcError(res, 405, -32000, `${req.method} is not supported: this MCP endpoint is stateless; POST JSON-RPC messages to /mcp`, { allow: 'POST' });
    let body = parsedBody;
    if (body === undefined) {
      const read = await readJsonBody(req, tools.maxBodyBytes);
      if (!read.ok) return read.error.reason === 'too_large' ? rpcError(res, 413, -32600, read.error.message) : rpcError(res, 400, -32700, `parse error: ${read.error.message}`);
      body = read.result.body;
    }
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
