// A protocol error (an unknown tool) goes on the wire with its message as written: the SDK's McpError put
// "MCP error -32602: " in front of it and the server sent that on, so the SDK client, which adds the prefix itself,
// showed "MCP error -32602: MCP error -32602: unknown tool …", and through `memvault mcp` (the stdio proxy, a client
// of the daemon and a server of its own) three times.
import t from 'tap';
import { mcpClient, startToolDaemon, stdioClient } from './helpers/tool-daemon.js';

const SAID = 'unknown tool "nope"; tools/list shows the tools on offer';

/** The error a call rejects with, its code and whole message (t.rejects would match a message that merely holds it). */
async function refusal(p: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await p;
  } catch (err) {
    return { code: (err as { code?: unknown }).code, message: (err as Error).message };
  }
  throw new Error('the call was answered');
}

t.test('an unknown tool is said once over Streamable HTTP and over stdio', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => s.stop());

  const raw = await fetch(`${s.d.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.d.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nope', arguments: {} } }),
  });
  t.same(((await raw.json()) as any).error, { code: -32602, message: SAID }, 'on the wire: the message as written');

  const http = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => http.close());
  t.same(
    await refusal(http.callTool({ name: 'nope', arguments: {} })),
    { code: -32602, message: `MCP error -32602: ${SAID}` },
    'SDK client over HTTP',
  );

  const stdio = await stdioClient(t, s, 'stdio-test-client');
  t.same(
    await refusal(stdio.callTool({ name: 'nope', arguments: {} })),
    { code: -32602, message: `MCP error -32602: ${SAID}` },
    'SDK client over stdio, through the proxy',
  );
});
