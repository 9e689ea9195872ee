// A read-only credential reads and searches but every write is refused `forbidden` (HTTP 403) before the disk or
// git changes, over MCP and HTTP alike; tools/list shows each credential only the tools its scope may call.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { call, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, commits, mcpAs, toolAs } from './helpers.js';
import { httpCall } from '../../helpers/daemon.js';

const FILES = { 'Inbox/Hello.md': '# Hello\n\nthe otter swims\n' };

t.test('a read agent cannot write (403 forbidden, nothing on disk, no commit)', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const reader = agent(s.cfg.data_dir, 'reader', { scope: 'read' });
  const before = commits(s.v.dir).length;

  const client = await mcpAs(s.d.url, reader);
  t.teardown(() => client.close());
  t.match((await call(client, 'vault_read', { path: 'Inbox/Hello.md' })).body, { content: /otter/ }, 'it reads');
  t.match((await call(client, 'memory_search', { query: 'otter', mode: 'bm25' })).body.results, [{ path: 'Inbox/Hello.md' }]);

  const w = await call(client, 'vault_write', { path: 'Inbox/New.md', content: '# New\n' });
  t.ok(w.isError);
  t.match(w.body, { error: { reason: 'forbidden', message: /vault_write needs the write scope; this credential has read/ } });
  const h = await toolAs(s.d.url, reader, 'vault_write', { path: 'Inbox/New2.md', content: '# New\n' });
  t.equal(h.status, 403);
  t.equal(h.body.error.reason, 'forbidden');
  t.equal((await toolAs(s.d.url, reader, 'memory_remember', { content: 'otters hold hands' })).status, 403);
  t.equal((await toolAs(s.d.url, reader, 'vault_undo_last', {})).status, 403);
  t.equal((await toolAs(s.d.url, reader, 'memory_forget', { query: 'otter', confirm: true })).status, 403);
  const ep = await httpCall(s.d.url, 'POST', '/v1/episodes', { episodes: [] }, { token: reader });
  t.equal(ep.status, 403, 'episodes ingest needs write');
  t.equal((await httpCall(s.d.url, 'GET', '/v1/jobs', undefined, { token: reader })).status, 403, 'jobs need admin');
  t.equal((await httpCall(s.d.url, 'POST', '/v1/reindex', {}, { token: reader })).status, 403, 'reindex needs admin');

  t.notOk(existsSync(path.join(s.v.dir, 'Inbox/New.md')), 'nothing on disk');
  t.notOk(existsSync(path.join(s.v.dir, 'Inbox/New2.md')));
  t.equal(commits(s.v.dir).length, before, 'no commit');
  t.same(s.writes.seen, [], 'no write reached the git writer');
});

t.test('tools/list differs by scope, over MCP and HTTP', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const tokens = {
    read: agent(s.cfg.data_dir, 'r', { scope: 'read' }),
    write: agent(s.cfg.data_dir, 'w', { scope: 'write' }),
    admin: agent(s.cfg.data_dir, 'a', { scope: 'admin' }),
  };
  const READ = ['memory_context', 'memory_facts', 'memory_search', 'memory_timeline', 'vault_link', 'vault_list', 'vault_read'];
  const WRITES = ['memory_add_fact', 'memory_delete_fact', 'memory_forget', 'memory_invalidate_fact', 'memory_remember'];
  const ALL = [...READ, ...WRITES, 'vault_undo_last', 'vault_write'].sort();
  const want = { read: READ, write: ALL, admin: ALL };
  for (const [scope, token] of Object.entries(tokens)) {
    const client = await mcpAs(s.d.url, token);
    const names = (await client.listTools()).tools.map((x) => x.name).sort();
    await client.close();
    t.same(names, want[scope as keyof typeof want], `${scope}: MCP tools/list`);
    const http = await httpCall(s.d.url, 'GET', '/v1/tools', undefined, { token });
    t.same(http.body.tools.map((x: { name: string }) => x.name).sort(), want[scope as keyof typeof want], `${scope}: GET /v1/tools`);
  }
  const owner = await mcpAs(s.d.url, s.d.token);
  t.same((await owner.listTools()).tools.map((x) => x.name).sort(), ALL, 'the owner token lists everything');
  await owner.close();
  t.equal((await httpCall(s.d.url, 'GET', '/v1/tools', undefined, { token: 'mv_not-a-token' })).status, 401);
});
