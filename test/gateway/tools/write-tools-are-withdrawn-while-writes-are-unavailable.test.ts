// While the write path is unavailable (git missing, writes disabled, still starting), vault_write and
// vault_undo_last are not offered — not listed over MCP, 503 over HTTP — and every read tool keeps working.
import t from 'tap';
import { call, EVERY_TOOL, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

t.test('the write tools disappear and come back with the write path', async (t) => {
  const s = await startToolDaemon({ 'Inbox/a.md': '# A\n\nalpha beta gamma\n' });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());
  const names = async () => (await client.listTools()).tools.map((x) => x.name).sort();

  t.same(await names(), EVERY_TOOL);

  s.writes.setState(2); // the git writer reports: git is missing
  t.same(
    await names(),
    ['memory_context', 'memory_facts', 'memory_forget', 'memory_search', 'memory_timeline', 'vault_link', 'vault_list', 'vault_read'],
    'write tools are not listed',
  );
  const w = await call(client, 'vault_write', { path: 'Inbox/b.md', content: '# B\n' });
  t.match(
    w,
    { isError: true, body: { error: { reason: 'unavailable', message: /git_missing/ } } },
    'a client that calls anyway is told why',
  );
  const http = await s.d.api('POST', '/v1/tools/vault_undo_last', {});
  t.equal(http.status, 503);
  t.match(http.body, { error: { reason: 'unavailable' } });
  const listing = await s.d.api('GET', '/v1/tools');
  t.match(listing.body, { writes: { available: false, reason: /git_missing/ } });
  t.equal(listing.body.tools.length, 8);
  t.equal(s.writes.seen.length, 0, 'nothing reached the write path');

  // the rest keeps working
  t.equal((await call(client, 'vault_read', { path: 'Inbox/a.md' })).body.content, '# A\n\nalpha beta gamma\n');
  t.equal((await call(client, 'memory_search', { query: 'alpha gamma', mode: 'bm25' })).body.results[0]?.path, 'Inbox/a.md');
  t.same(
    (await call(client, 'vault_list', { folder: 'Inbox' })).body.notes.map((n: { path: string }) => n.path),
    ['Inbox/a.md'],
  );

  s.writes.setState(1);
  t.equal((await names()).length, 14, 'offered again once the write path is back');
  const ok = await call(client, 'vault_write', { path: 'Inbox/b.md', content: '# B\n', wait_indexed: true });
  t.match(ok, { isError: false, body: { op: 'write', indexed: true } });
});
