// The tools as plain HTTP JSON: GET /v1/tools lists them, POST /v1/tools/<name> calls one with the same arguments
// and returns the same result object as MCP's structuredContent (200), or `{ error: { reason, message } }` with a
// status that says what kind of failure it is.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ToolGateway } from './gateway.js';
import { readJsonBody, sendJson } from '../http-body.js';
import { httpStatus, type ToolError } from './types.js';
import type { Principal } from '../agents/store.js';

function fail(res: ServerResponse, e: ToolError, headers: Record<string, string> = {}): number {
  const status = headers['allow'] ? 405 : httpStatus(e.reason);
  sendJson(res, status, { error: e }, status === 503 ? { 'retry-after': '5', ...headers } : headers);
  return status;
}

/** Serves `/v1/tools` and `/v1/tools/<name>` (the caller has checked the bearer token); resolves with the status sent. */
export async function handleToolHttp(
  tools: ToolGateway,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  principal: Principal,
): Promise<number> {
  const status = await serve();
  tools.metrics.requests.inc({ transport: 'http', status: String(status) });
  return status;

  async function serve(): Promise<number> {
    let name: string;
    try {
      name = decodeURIComponent(pathname.replace(/^\/v1\/tools\/?/, ''));
    } catch {
      return fail(res, { reason: 'not_found', message: `no tool at ${pathname}` });
    }
    if (name === '') {
      if (req.method !== 'GET')
        return fail(
          res,
          { reason: 'bad_request', message: 'GET /v1/tools lists the tools; POST /v1/tools/<name> calls one' },
          { allow: 'GET' },
        );
      sendJson(res, 200, {
        tools: await tools.list(principal),
        writes: { available: tools.writesOff() === null, reason: tools.writesOff() },
      });
      return 200;
    }
    if (!tools.known(name)) return fail(res, { reason: 'not_found', message: `no tool named "${name}"; GET /v1/tools lists them` });
    if (req.method !== 'POST')
      return fail(
        res,
        { reason: 'bad_request', message: `call a tool with POST /v1/tools/${name} and a JSON body of its arguments` },
        { allow: 'POST' },
      );
    const read = await readJsonBody(req, tools.maxBodyBytes);
    if (!read.ok) return fail(res, read.error);
    let out;
    try {
      out = await tools.call(name, read.result.body ?? {}, { agent: principal.name, transport: 'http', principal });
    } catch (err) {
      sendJson(res, 500, { error: { reason: 'internal', message: `internal error: ${(err as Error)?.message ?? String(err)}` } });
      return 500;
    }
    if (!out.ok) return fail(res, out.error);
    sendJson(res, 200, out.result);
    return 200;
  }
}

/**
 * The gateway's routes for http-server.ts: `/mcp` and `/v1/tools[/<name>]`. Null when `pathname` is not one of them.
 * Check the bearer token before calling.
 */
export function routeTools(
  tools: ToolGateway,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  principal: Principal,
  /** Spends the caller's rate for an MCP message that calls a tool; false: refused, and answered 429. */
  spendCall?: () => boolean,
): Promise<number> | null {
  // the MCP SDK (~0.2–0.5 s to load) is imported on the first /mcp request or by ToolGateway.warm(), not at start
  if (pathname === '/mcp') return import('./mcp-http.js').then((m) => m.handleMcpRequest(tools, req, res, undefined, principal, spendCall));
  if (pathname === '/v1/tools' || pathname.startsWith('/v1/tools/')) return handleToolHttp(tools, req, res, pathname, principal);
  return null;
}
