// A stand-in for a running daemon, for CLI tests of what the CLI does with its answers: an HTTP server on loopback
// named in the vault's daemon.json (with this process's pid) and a token in the data dir. /healthz answers ok, so the
// CLI finds it; every other request goes to `handle`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';
import type { Config } from '../../config/load.js';

export const STAND_IN_TOKEN = 'test-token';

export async function standInDaemon(
  t: { teardown(fn: () => unknown): void },
  cfg: Config,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  mkdirSync(cfg.data_dir, { recursive: true });
  writeFileSync(path.join(cfg.data_dir, 'token'), `${STAND_IN_TOKEN}\n`, { mode: 0o600 });
  const server = createServer((req, res) => {
    if (req.url === '/healthz') return void res.end(JSON.stringify({ ok: true, version: 'test' }));
    handle(req, res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeDaemonInfo(cfg, { pid: process.pid, url, started_at: new Date().toISOString() });
  t.teardown(() => removeDaemonInfo(cfg.data_dir, process.pid));
  return url;
}
