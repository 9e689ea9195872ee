// A tool request whose body holds bytes that are not UTF-8 is refused as `bad_request` (HTTP JSON) or a parse
// error (MCP) — not decoded leniently into U+FFFD and written into a note.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from './helpers/tool-daemon.js';

t.test('invalid UTF-8 in a body is refused and nothing is written', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Plain.md': '# Plain\n' });
  t.teardown(() => s.stop());
  const headers = {
    authorization: `Bearer ${s.d.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  for (const bad of [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
    const args = Buffer.concat([Buffer.from('{"path":"Inbox/mangled.md","content":"caf'), Buffer.from(bad), Buffer.from('"}')]);
    const http = await fetch(`${s.d.url}/v1/tools/vault_write`, { method: 'POST', headers, body: args });
    t.equal(http.status, 400, `HTTP JSON: bytes ${Buffer.from(bad).toString('hex')} → 400`);
    t.match(await http.json(), { error: { reason: 'bad_request', message: /not valid UTF-8/ } });
    const rpc = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"vault_write","arguments":'),
      args,
      Buffer.from('}}'),
    ]);
    const mcp = await fetch(`${s.d.url}/mcp`, { method: 'POST', headers, body: rpc });
    t.equal(mcp.status, 400, 'MCP: refused as a parse error');
    t.match(await mcp.json(), { error: { code: -32700 } });
  }
  t.notOk(existsSync(path.join(s.v.dir, 'Inbox/mangled.md')), 'no note was written');
});
