// An agent on the SDK's MCP client (Streamable HTTP to a real daemon's /mcp) sees the six tools as declared, and
// uses every one: write a note, read it back, find it by search, list it, follow its links, undo the changes.
import t from 'tap';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, EVERY_TOOL, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

const FILES = {
  'Welcome.md': '# Welcome\n\nStart here.\n',
  'People/Beta.md': '---\naliases: [Bee]\n---\n# Beta\n\nBeta runs the billing team.\n',
  'People/Gamma.md': '# Gamma\n\nGamma works with [[Alpha]] on the launch.\n',
  'People/photo.png': 'not a note',
  'Templates/Daily.md': '# {{date}}\n',
  '.obsidian/app.json': '{}',
};

t.test('the tools are listed with their annotations and input schemas', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token, 'lister');
  t.teardown(() => client.close());

  const { tools } = await client.listTools();
  const byName = new Map(tools.map((x) => [x.name, x]));
  t.same([...byName.keys()].sort(), EVERY_TOOL);
  for (const name of ['vault_read', 'vault_list', 'vault_link', 'memory_search'])
    t.match(byName.get(name)!.annotations, { readOnlyHint: true, openWorldHint: false }, `${name} is read-only`);
  t.match(byName.get('vault_write')!.annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  });
  t.match(byName.get('vault_undo_last')!.annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  });
  const write = byName.get('vault_write')!.inputSchema;
  t.equal(write.type, 'object');
  t.same([...(write.required ?? [])].sort(), ['content', 'path'], 'path and content are required');
  t.match(write.properties, {
    path: { type: 'string' },
    content: { type: 'string' },
    expected_mtime: { type: 'number' },
    wait_indexed: { type: 'boolean' },
  });
  t.match(byName.get('memory_search')!.inputSchema.properties, {
    query: { type: 'string', description: /look for/ },
    mode: { enum: ['hybrid', 'bm25', 'vector'] },
  });
  t.ok(
    tools.every((x) => typeof x.description === 'string' && x.description.length > 40),
    'every tool says what it does',
  );
  t.match(client.getInstructions(), /memory_search/, 'the server explains how the tools fit together');
});

t.test('write, read back, search, list, links and undo work end to end', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const client: Client = await mcpClient(s.d.url, s.d.token, 'test agent!');
  t.teardown(() => client.close());

  const first = '# Alpha\n\nThe quokka zeppelin plan. Ask [[Bee]] and [[Nowhere]]; see [[People/Beta#Budget|budget]].\n';
  const w = await call(client, 'vault_write', { path: 'Projects/Alpha.md', content: first, reason: 'start the plan', wait_indexed: true });
  t.equal(w.isError, false, w.text);
  t.match(w.body, { op: 'write', path: 'Projects/Alpha.md', commit: /^[0-9a-f]{40}$/, content_hash: /^[0-9a-f]{64}$/, indexed: true });
  t.same(JSON.parse(w.text), w.body, 'the text content is the same JSON');
  t.match(s.writes.seen.at(-1), { op: 'write', agent: 'test-agent', reason: 'start the plan' }, 'the agent id is sanitised and recorded');

  const again = await call(client, 'vault_write', { path: 'Projects/Alpha.md', content: first, wait_indexed: true });
  t.match(again.body, { commit: null, content_hash: w.body.content_hash, indexed: true }, 'the same content again: no commit (idempotent)');

  const r = await call(client, 'vault_read', { path: 'Projects/Alpha.md' });
  t.equal(r.isError, false, r.text);
  t.match(r.body, {
    path: 'Projects/Alpha.md',
    content: first,
    content_hash: w.body.content_hash,
    mtime_ms: w.body.mtime_ms,
    sensitive: false,
    indexed: true,
    frontmatter: {},
  });

  const found = await call(client, 'memory_search', { query: 'quokka zeppelin', k: 3 });
  t.equal(found.isError, false, found.text);
  t.equal(found.body.results[0]?.path, 'Projects/Alpha.md', 'search finds the note just written (wait_indexed)');
  t.match(found.body, { mode: /hybrid|bm25/, index: { documents: 4 } });

  const root = await call(client, 'vault_list', {});
  t.same(root.body.folders, ['People', 'Projects'], 'hidden and ignored folders are left out');
  t.same(
    root.body.notes.map((n: { path: string }) => n.path),
    ['Welcome.md'],
  );
  const all = await call(client, 'vault_list', { folder: '', recursive: true });
  t.same(
    all.body.notes.map((n: { path: string }) => n.path),
    ['People/Beta.md', 'People/Gamma.md', 'Projects/Alpha.md', 'Welcome.md'],
    'recursive listing: notes only, no Templates, no .png',
  );
  const projects = await call(client, 'vault_list', { folder: 'Projects/' });
  t.match(projects.body, {
    folder: 'Projects',
    recursive: false,
    folders: [],
    notes: [{ path: 'Projects/Alpha.md', mtime_ms: w.body.mtime_ms, size: Buffer.byteLength(first) }],
    truncated: false,
  });

  const links = await call(client, 'vault_link', { path: 'Projects/Alpha.md' });
  t.equal(links.isError, false, links.text);
  t.match(links.body.outgoing, [
    { target: 'Bee', path: 'People/Beta.md', via: 'alias', line: 3, embed: false },
    { target: 'People/Beta', path: 'People/Beta.md', via: 'path', heading: 'Budget', alias: 'budget' },
  ]);
  t.match(links.body.unresolved, [{ target: 'Nowhere', reason: 'missing', line: 3 }]);
  t.match(links.body.backlinks, [{ path: 'People/Gamma.md', title: 'Gamma', line: 3 }], 'Gamma linked to Alpha before it existed');
  const beta = await call(client, 'vault_link', { path: 'People/Beta.md' });
  t.same(
    beta.body.backlinks.map((b: { path: string }) => b.path),
    ['Projects/Alpha.md', 'Projects/Alpha.md'],
    'backlinks of the alias target',
  );

  // overwrite with the mtime we read; a second write with the now-stale mtime is a conflict
  const second = '# Alpha\n\nThe plan changed: walrus balloon instead.\n';
  const w2 = await call(client, 'vault_write', {
    path: 'Projects/Alpha.md',
    content: second,
    expected_mtime: r.body.mtime_ms,
    wait_indexed: true,
  });
  t.match(w2.body, { indexed: true });
  const stale = await call(client, 'vault_write', { path: 'Projects/Alpha.md', content: 'lost update', expected_mtime: r.body.mtime_ms });
  t.equal(stale.isError, true);
  t.equal(stale.body.error.reason, 'conflict');
  t.equal((await call(client, 'vault_read', { path: 'Projects/Alpha.md' })).body.content, second);

  // undo twice: back to the first version, then the note is gone again
  const u1 = await call(client, 'vault_undo_last', { reason: 'wrong plan', wait_indexed: true });
  t.match(u1.body, { op: 'undo', paths: ['Projects/Alpha.md'], indexed: true });
  t.match(s.writes.seen.at(-1), { op: 'undo', agent: 'test-agent', onlyMine: true, reason: 'wrong plan' }, 'only_mine defaults to true');
  t.equal((await call(client, 'vault_read', { path: 'Projects/Alpha.md' })).body.content, first);
  const u2 = await call(client, 'vault_undo_last', { wait_indexed: true });
  t.match(u2.body, { indexed: true });
  const gone = await call(client, 'vault_read', { path: 'Projects/Alpha.md' });
  t.match(gone, { isError: true, body: { error: { reason: 'not_found' } } });
  const after = await call(client, 'memory_search', { query: 'quokka zeppelin', mode: 'bm25' });
  t.same(after.body.results, [], 'search no longer finds the undone note');
  const none = await call(client, 'vault_undo_last', {});
  t.match(none.body, { error: { reason: 'nothing_to_undo' } });

  const metrics = String((await s.d.api('GET', '/metrics')).body);
  t.match(metrics, /memvault_tool_calls_total\{tool="vault_write",transport="mcp",outcome="ok"\} 3/);
  t.match(metrics, /memvault_tool_calls_total\{tool="vault_write",transport="mcp",outcome="conflict"\} 1/);
  t.match(metrics, /memvault_tool_requests_total\{transport="mcp",status="200"\} \d+/);
});
