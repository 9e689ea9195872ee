// `memvault reindex` with a daemon running waits for its answer however long the rebuild takes: it used to give up
// after 30 s with a TimeoutError and a stack (exit 1) while the daemon went on building, and an operator's retry
// then started a second build beside the first. A stand-in daemon that answers after 31 s shows the wait.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

t.test('reindex through a daemon that takes 31 s answers what the daemon did and exits 0', { timeout: 90_000 }, async (t) => {
  const v = makeVault({ 'Projects/a.md': '# A\n\nsome text\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  mkdirSync(cfg.data_dir, { recursive: true });
  writeFileSync(path.join(cfg.data_dir, 'token'), 'test-token\n', { mode: 0o600 });
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/healthz') return void res.end(JSON.stringify({ ok: true, version: 'test' }));
    if (req.url === '/v1/reindex' && req.headers.authorization === 'Bearer test-token')
      return void setTimeout(() => res.end(JSON.stringify({ ok: true, documents: 3, ms: 31_000, error: null })), 31_000);
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { reason: 'not_found', message: req.url } }));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeDaemonInfo(cfg, { pid: process.pid, url, started_at: new Date().toISOString() });
  t.teardown(() => removeDaemonInfo(cfg.data_dir, process.pid));

  const r = await memvault(['reindex', '--vault', v.dir], { MEMVAULT_DATA_DIR: cfg.data_dir });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /the daemon rebuilt the index \(3 notes, 31\.0 s\)/);
  t.notMatch(r.stderr, /TimeoutError|at /, 'no stack');
});
