// POST /v1/tools/<name> takes the same arguments as the MCP tools and answers with the same objects (MCP's
// structuredContent), failures as `{ error: { reason, message } }` with a status for the reason.
import t from 'tap';
import { call, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

t.test('every tool answers the same over HTTP JSON and MCP', async (t) => {
  const s = await startToolDaemon({
    'Projects/Atlas.md': '---\naliases: [atlas]\ntags: [infra]\n---\n# Atlas\n\nMigrate the ledger to Postgres. Owner: [[Maya]].\n',
    'People/Maya.md': '# Maya\n\nRuns [[Atlas]] and [[Ghost]].\n',
  });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token, 'parity');
  t.teardown(() => client.close());
  const both = async (tool: string, args: Record<string, unknown>) => {
    const mcp = await call(client, tool, args);
    const http = await s.d.api('POST', `/v1/tools/${tool}`, args);
    return { mcp, http };
  };

  for (const [tool, args] of [
    ['vault_read', { path: 'Projects/Atlas.md' }],
    ['vault_list', { recursive: true }],
    ['vault_list', { folder: 'People' }],
    ['vault_link', { path: 'People/Maya.md' }],
  ] as const) {
    const { mcp, http } = await both(tool, args);
    t.equal(http.status, 200, `${tool} over HTTP`);
    t.same(http.body, mcp.body, `${tool} ${JSON.stringify(args)}: same object`);
  }
  const read = (await both('vault_read', { path: 'Projects/Atlas.md' })).http.body;
  t.match(read.frontmatter, { aliases: ['atlas'], tags: ['infra'] });

  const { mcp: sm, http: sh } = await both('memory_search', { query: 'ledger postgres migration', k: 2, filters: { tags: ['infra'] } });
  t.equal(sh.status, 200);
  t.same(sh.body.results, sm.body.results, 'same hits');
  t.equal(sh.body.mode, sm.body.mode);
  t.same(Object.keys(sh.body).sort(), ['degraded', 'index', 'mode', 'results', 'took_ms']);
  const v1 = await s.d.api('POST', '/v1/search', { query: 'ledger postgres migration', k: 2, filters: { tags: ['infra'] } });
  t.same(v1.body.results, sh.body.results, 'memory_search is POST /v1/search');

  const w = await s.d.api('POST', '/v1/tools/vault_write', {
    path: 'Projects/Beacon.md',
    content: '# Beacon\n\nSee [[atlas]].\n',
    wait_indexed: true,
  });
  t.equal(w.status, 200);
  t.same(Object.keys(w.body).sort(), ['commit', 'content_hash', 'indexed', 'mtime_ms', 'op', 'path']);
  t.match(w.body, { op: 'write', indexed: true });
  t.match(s.writes.seen.at(-1), { agent: 'agent' }, 'no X-Memvault-Agent header: recorded as `agent`');
  const back = (await both('vault_link', { path: 'Projects/Atlas.md' })).http.body;
  t.same(
    back.backlinks.map((b: { path: string }) => b.path),
    ['People/Maya.md', 'Projects/Beacon.md'],
    'the HTTP write shows up as a backlink',
  );

  for (const [tool, args, status, reason] of [
    ['vault_read', { path: 'Nope/x.md' }, 404, 'not_found'],
    ['vault_read', { path: '../x.md' }, 403, 'path_escape'],
    ['vault_list', { folder: 7 }, 400, 'bad_request'],
  ] as const) {
    const { mcp, http } = await both(tool, args);
    t.equal(http.status, status, `${tool} ${JSON.stringify(args)} → ${status}`);
    t.same(http.body, mcp.body, 'the same error object');
    t.equal(http.body.error.reason, reason);
  }

  const listing = await s.d.api('GET', '/v1/tools');
  t.same(listing.body.tools, (await client.listTools()).tools, 'GET /v1/tools lists what tools/list lists');
  t.equal((await s.d.api('GET', '/v1/tools/vault_read')).status, 405, 'tools are called with POST');
  const metrics = String((await s.d.api('GET', '/metrics')).body);
  t.match(metrics, /memvault_tool_requests_total\{transport="http",status="200"\} \d+/);
  t.match(metrics, /memvault_tool_calls_total\{tool="vault_read",transport="http",outcome="not_found"\} 1/);
});
