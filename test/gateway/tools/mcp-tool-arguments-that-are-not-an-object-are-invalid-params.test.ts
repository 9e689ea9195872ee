// A tools/call whose `arguments` is not an object (an array, a string, a number, null) is the caller's mistake:
// JSON-RPC -32602 invalid params naming the field, not the SDK's -32603 internal error.
import t from 'tap';
import { startToolDaemon } from './helpers/tool-daemon.js';

t.test('non-object tool arguments are invalid params', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Plain.md': '# Plain\n' });
  t.teardown(() => s.stop());
  const headers = {
    authorization: `Bearer ${s.d.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const send = async (args: unknown) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'vault_read', arguments: args } });
    const r = await fetch(`${s.d.url}/mcp`, { method: 'POST', headers, body });
    return { status: r.status, body: (await r.json()) as any };
  };
  for (const args of [[], [[[]]], 'Inbox/Plain.md', 42, null, true]) {
    const r = await send(args);
    t.equal(r.status, 200, `${JSON.stringify(args)}: answered`);
    t.match(
      r.body,
      { id: 9, error: { code: -32602, message: /params\.arguments must be an object/ } },
      `${JSON.stringify(args)}: invalid params`,
    );
  }
  const ok = await send({ path: 'Inbox/Plain.md' });
  t.equal(ok.body.result?.isError, undefined, 'an object still works');
  t.match(ok.body.result?.structuredContent, { path: 'Inbox/Plain.md' });
});
