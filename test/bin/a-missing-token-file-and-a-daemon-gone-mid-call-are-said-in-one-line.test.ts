// Two failures a user can act on printed a stack: `memvault mcp --token-file F` with no such file, and a call to a
// daemon that stopped answering in the middle (killed, restarting) — `TypeError: fetch failed` and its frames. Each
// is one line now, exit 1; so is any refusal the daemon answers with its reason (an index being rebuilt).
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';
import { standInDaemon } from '../helpers/stand-in-daemon.js';

t.test('a token file that is not there', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const missing = path.join(path.dirname(v.dir), 'no-such.token');
  const r = await memvault(['mcp', '--vault', v.dir, '--token-file', missing], {
    MEMVAULT_DATA_DIR: path.join(path.dirname(v.dir), 'data'),
  });
  t.equal(r.code, 1);
  t.equal(r.stderr, `memvault: ENOENT: no such file or directory, open '${missing}'\n`);
});

t.test('a daemon that drops the connection in the middle of a search', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  await standInDaemon(t, cfg, (req) => req.socket.destroy()); // gone mid-call
  // reindex waits without a time limit through its own request (no fetch): a killed daemon printed 'socket hang up' and a stack
  for (const args of [['search', 'hello'], ['reindex']]) {
    const r = await memvault([...args, '--vault', v.dir], { MEMVAULT_DATA_DIR: cfg.data_dir });
    t.equal(r.code, 1, args.join(' '));
    t.match(
      r.stderr,
      /^memvault: the daemon stopped answering in the middle of the call \(\w+\); is it still running\? \(memvault status\)\n$/,
      args.join(' '),
    );
  }
});

t.test("a daemon's refusal with a reason is said in one line, whichever command met it", async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const message = 'the index file is damaged (database disk image is malformed); memvault is rebuilding it';
  await standInDaemon(t, cfg, (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { reason: 'index_damaged', message } }));
  });
  for (const args of [['status'], ['search', 'hello']]) {
    const r = await memvault([...args, '--vault', v.dir], { MEMVAULT_DATA_DIR: cfg.data_dir });
    t.equal(r.code, 1, args.join(' '));
    t.equal(r.stderr, `memvault: index_damaged: ${message}\n`, `${args.join(' ')}: the reason and message, no stack`);
  }
});
