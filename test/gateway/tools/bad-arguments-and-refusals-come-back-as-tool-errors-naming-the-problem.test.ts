// Bad arguments and expected refusals (escapes, hidden folders, non-notes, missing notes, over-large or stale
// writes, unknown tools, no token) come back as tool results with `isError` and a reason code — or as 401 — never
// as crashes, and the message names the argument or the rule.
import t from 'tap';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

const FILES = {
  'Inbox/Plain.md': '# Plain\n\nnothing secret here\n',
};

t.test('bad arguments name the argument and the rule', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['vault_read', {}, /path: path is required/],
    ['vault_read', { path: 42 }, /path: path must be a string/],
    ['vault_read', { path: 'Inbox/Plain.md', extra: 1 }, /Unrecognized key.*extra/],
    ['vault_write', { path: 'Inbox/x.md' }, /content: content is required/],
    ['vault_write', { path: 'Inbox/x.md', content: 'x', expected_mtime: 'yesterday' }, /expected_mtime must be a number/],
    ['vault_write', { path: 'Inbox/x.md', content: 'x', wait_indexed: 'yes' }, /wait_indexed must be true or false/],
    ['vault_list', { recursive: 1 }, /recursive must be true or false/],
    ['vault_undo_last', { only_mine: 'no' }, /only_mine must be true or false/],
    ['memory_search', { query: '' }, /query: query must be a non-empty string/],
    ['memory_search', { query: 'x', k: 0 }, /k: k must be at least 1/],
    ['memory_search', { query: 'x', mode: 'fuzzy' }, /mode: Invalid enum value/],
  ];
  for (const [tool, args, message] of cases) {
    const r = await call(client, tool, args);
    t.equal(r.isError, true, `${tool} ${JSON.stringify(args)} is an error result`);
    t.equal(r.body.error.reason, 'bad_request');
    t.match(r.body.error.message, message);
    t.match(r.body.error.message, new RegExp(`^${tool}: `), 'the message names the tool');
  }
  const http = await s.d.api('POST', '/v1/tools/memory_search', { query: 'x', k: 0 });
  t.equal(http.status, 400);
  t.match(http.body, { error: { reason: 'bad_request', message: /k: k must be at least 1/ } });
  const notJson = await fetch(`${s.d.url}/v1/tools/vault_read`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.d.token}` },
    body: '{nope',
  });
  t.equal(notJson.status, 400);
  t.match(await notJson.json(), { error: { reason: 'bad_request', message: /JSON/ } });

  await t.rejects(
    client.callTool({ name: 'vault_delete_everything', arguments: {} }),
    /unknown tool "vault_delete_everything"/,
    'an unknown tool is a protocol error',
  );
  t.equal((await s.d.api('POST', '/v1/tools/vault_delete_everything', {})).status, 404);
});

t.test('paths that escape the vault, hidden folders and non-notes are refused', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const outside = mkdtempSync(path.join(os.tmpdir(), 'memvault-outside-'));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(path.join(outside, 'secret.md'), '# secret\n');
  symlinkSync(path.join(outside, 'secret.md'), path.join(s.v.dir, 'Inbox', 'link.md'));
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  const cases: Array<[string, string, RegExp]> = [
    ['../outside.md', 'path_escape', /'\.\.' segments are not allowed/],
    ['/etc/passwd.md', 'path_escape', /absolute paths are not allowed/],
    ['C:/Windows/x.md', 'path_escape', /drive letters/],
    ['Inbox\\..\\..\\x.md', 'path_escape', /backslashes are not allowed/],
    ['Inbox/\u202egnp.md', 'path_escape', /bidirectional control U\+202E/],
    ['Inbox\uff0f..\uff0fx.md', 'path_escape', /U\+FF0F, which looks like '\/'/],
    ['Inbox/a\u0000.md', 'path_escape', /NUL/],
    ['Inbox/%2e%2e/x.md', 'path_escape', /URL-encoded/],
    ['.obsidian/workspace.md', 'path_escape', /'\.obsidian' is hidden/],
    ['Inbox/link.md', 'path_escape', /symlink that leads outside/],
    ['Inbox/Plain.txt', 'not_markdown', /not a markdown note/],
    ['Inbox/Nope.md', 'not_found', /no note at Inbox\/Nope\.md/],
  ];
  for (const [p, reason, message] of cases) {
    const r = await call(client, 'vault_read', { path: p });
    t.match(r, { isError: true, body: { error: { reason, message } } }, `vault_read ${JSON.stringify(p)} → ${reason}`);
  }
  const w = await call(client, 'vault_write', { path: '../escape.md', content: 'x' });
  t.match(w.body, { error: { reason: 'path_escape' } }, 'writes are checked too, before the write path sees them');
  t.equal(s.writes.seen.length, 0, 'the refused write never reached the writer');
  const list = await call(client, 'vault_list', { folder: '../' });
  t.match(list.body, { error: { reason: 'path_escape' } });
  t.match((await call(client, 'vault_list', { folder: 'Nowhere' })).body, { error: { reason: 'not_found' } });

  const statuses = await Promise.all([
    s.d.api('POST', '/v1/tools/vault_read', { path: '../x.md' }),
    s.d.api('POST', '/v1/tools/vault_read', { path: 'Inbox/Nope.md' }),
    s.d.api('POST', '/v1/tools/vault_read', { path: 'Inbox/x.txt' }),
  ]);
  t.same(
    statuses.map((r) => r.status),
    [403, 404, 400],
  );
});

t.test('over-large, stale and disallowed writes are refused with their reason', async (t) => {
  const s = await startToolDaemon(FILES, { extra: '  max_bytes: 1000' });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  const big = await call(client, 'vault_write', { path: 'Inbox/Big.md', content: 'x'.repeat(1001) });
  t.match(big.body, { error: { reason: 'too_large', message: /1001 bytes.*writes\.max_bytes/ } });
  t.equal((await s.d.api('POST', '/v1/tools/vault_write', { path: 'Inbox/Big.md', content: 'x'.repeat(1001) })).status, 413);
  const nul = await call(client, 'vault_write', { path: 'Inbox/Zero.md', content: 'a\u0000b' });
  t.match(nul.body, { error: { reason: 'invalid_content' } });
  t.equal(s.writes.seen.length, 0, 'refused before reaching the write path');
  const outsideAllow = await s.d.api('POST', '/v1/tools/vault_write', { path: 'Secrets/x.md', content: 'x' });
  t.match(
    outsideAllow,
    { status: 403, body: { error: { reason: 'outside_allowlist' } } },
    "the writer's refusals pass through with their reason",
  );
  const read = await call(client, 'vault_read', { path: 'Inbox/Plain.md' });
  const stale = await s.d.api('POST', '/v1/tools/vault_write', {
    path: 'Inbox/Plain.md',
    content: 'x',
    expected_mtime: read.body.mtime_ms - 1,
  });
  t.match(stale, { status: 409, body: { error: { reason: 'conflict' } } });
  t.equal((await call(client, 'vault_read', { path: 'Inbox/Plain.md' })).body.content, FILES['Inbox/Plain.md'], 'the note is untouched');
});

t.test('without the token, /mcp and /v1/tools answer 401', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  await t.rejects(mcpClient(s.d.url, null), 'the MCP client cannot connect without a token');
  await t.rejects(mcpClient(s.d.url, 'wrong-token'), 'nor with a wrong one');
  const raw = await fetch(`${s.d.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.equal(raw.status, 401);
  t.equal(raw.headers.get('www-authenticate'), 'Bearer');
  const http = await s.d.api('POST', '/v1/tools/vault_read', { path: 'Inbox/Plain.md' }, null);
  t.match(http, { status: 401, body: { error: { reason: 'unauthorized' } } });
  t.equal(s.writes.seen.length, 0);
});
