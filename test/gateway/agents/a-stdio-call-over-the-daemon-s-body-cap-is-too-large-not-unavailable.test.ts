// A call through `memvault mcp` whose request is over the daemon's body cap (a vault_write of 1.2 MB) is refused by
// /mcp with HTTP 413 and a JSON-RPC error before any work; the stdio proxy answered it `unavailable`, "the call did not
// reach the memvault daemon", so an agent would retry the same call. It is `too_large`, as over HTTP JSON.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { call, startToolDaemon, stdioClient } from '../tools/helpers/tool-daemon.js';

t.test('a stdio call over the body cap is too_large', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => s.stop());
  const client = await stdioClient(t, s, 'stdio-big-client');

  const r = await call(client, 'vault_write', { path: 'Inbox/Huge.md', content: 'a'.repeat(1_200_000) });
  t.match(
    r,
    { isError: true, body: { error: { reason: 'too_large', message: /request body is over \d+ bytes/ } } },
    'too_large, not unavailable',
  );
  t.notOk(existsSync(path.join(s.v.dir, 'Inbox/Huge.md')), 'nothing written');
  t.match(
    (await call(client, 'vault_write', { path: 'Inbox/Small.md', content: '# Small\n' })).body,
    { op: 'write' },
    'the session goes on',
  );
});
