// An MCP server (the SDK's low-level Server) over the tool gateway: tools/list and tools/call, results as
// structuredContent plus the same JSON as text, expected failures as `isError` results rather than protocol errors.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, ToolOutcome, ToolServer } from './types.js';

/**
 * A JSON-RPC error whose message goes on the wire as written. The SDK's McpError puts `MCP error <code>: ` in front of
 * its message and its server sends that on, so a client, which adds the prefix again, showed it twice (three times
 * through the stdio proxy).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** A protocol error the daemon answered (the SDK client's McpError), passed on with the message it had on the wire. */
export function passOn(err: McpError): RpcError {
  const prefix = `MCP error ${err.code}: `;
  return new RpcError(err.code, err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message, err.data);
}

/**
 * The result as structuredContent and as text. Every tool's outputSchema (output-schemas.ts) admits `{ error }` too:
 * the SDK client validates structuredContent even on `isError` results, and clients read the reason from it.
 */
export function toCallToolResult(o: ToolOutcome): CallToolResult {
  const body = o.ok ? o.result : { error: o.error };
  const out: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
  if (!o.ok) out.isError = true;
  return out;
}

export function buildMcpServer(tools: ToolServer, ctx: CallContext): Server {
  const server = new Server(
    { name: 'memvault', version: tools.version },
    { capabilities: { tools: {} }, instructions: tools.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await tools.list(ctx.principal) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const name = req.params.name;
    if (!tools.known(name)) throw new RpcError(ErrorCode.InvalidParams, `unknown tool "${name}"; tools/list shows the tools on offer`);
    return toCallToolResult(await tools.call(name, req.params.arguments ?? {}, ctx));
  });
  return server;
}
