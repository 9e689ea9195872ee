// `memvault start` makes its start again over a fresh index when an actor's init meets a damaged page (the damaged
// file kept aside, the index rebuilt from the vault and the journal). The other commands that run a daemon of their
// own — `memvault mcp` without a running daemon, and the one-shot tool commands (`facts`, `forget`, …) — failed
// instead: the MCP session's every call answered `unavailable`, and the command said "watcher failed
// (SQLITE_CORRUPT)". They now start over the damage as `start` does.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Readable } from 'node:stream';
import { REPO, testConfig } from '../helpers/daemon.js';
import { lineMatching } from '../helpers/line-matching.js';
import { memvault } from '../helpers/run-cli.js';
import { call } from '../gateway/tools/helpers/tool-daemon.js';
import { damageTable, indexedThenStopped } from '../main/helpers/indexed-then-stopped.js';

const keptAside = (dataDir: string): string[] => readdirSync(dataDir).filter((f) => /^index\.sqlite\.damaged-\d+$/.test(f));

t.test('memvault mcp starts its own daemon over a damaged page and answers from the rebuilt index', { timeout: 120_000 }, async (t) => {
  const { v, cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_documents');
  testConfig(v.dir, '', { logLevel: 'info' }); // the same data dir, its log on stderr
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin/memvault'), 'mcp', '--config', cfg.config_file!, '--vault', v.dir],
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'damage-test-client', version: '1.0.0' });
  t.teardown(() => client.close());
  const indexed = lineMatching(transport.stderr as Readable, /"event":"memory_ingest".*"path":"Projects\/p17\.md"/);
  await client.connect(transport);
  await indexed;
  const found = await call(client, 'memory_search', { query: 'g17q', mode: 'bm25', k: 1 });
  t.equal(found.isError, false, found.text);
  t.equal(found.body.results[0]?.path, 'Projects/p17.md', 'the search answers from the rebuilt index');
  t.equal(keptAside(cfg.data_dir).length, 1, 'the damaged file is kept aside, not deleted');
});

t.test('a one-shot tool command starts over a damaged page too', { timeout: 120_000 }, async (t) => {
  const { v, cfg } = await indexedThenStopped(t);
  damageTable(path.join(cfg.data_dir, 'index.sqlite'), 'memory_documents');
  const r = await memvault(['facts', '--config', cfg.config_file!, '--vault', v.dir, '--json']);
  t.equal(r.code, 0, r.stderr);
  t.match(JSON.parse(r.stdout), { facts: [] });
  t.equal(keptAside(cfg.data_dir).length, 1, 'the damaged file is kept aside, not deleted');
});
