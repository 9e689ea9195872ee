// `memvault mcp --token-file F` with a token the daemon refuses (revoked, or never issued) used to connect and then
// answer every call `unauthorized`. It checks the token once at start: one line on stderr naming `unauthorized`,
// exit 1, nothing on stdout (no MCP session) — against a running daemon, and against the one it starts itself, which
// it stops again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { revokeAgent } from '../../../actors/gateway/agents/store.js';
import { writeDaemonInfo } from '../../../bin/client.js';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { BIN } from '../../helpers/run-cli.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent } from './helpers.js';

/** Runs `memvault mcp` with stdin held open (as an MCP client holds it): its exit code and both outputs. */
async function mcp(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(BIN, ['mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // a proxy that serves would wait on stdin for ever: end it after 20 s so the test fails instead of hanging
  const guard = setTimeout(() => child.stdin.end(), 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(guard);
  return { code, stdout, stderr };
}

t.test('against a running daemon: a revoked token and a made-up one', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => s.stop());
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const dir = path.dirname(s.v.dir);
  const revoked = path.join(dir, 'scout.token');
  writeFileSync(revoked, `${agent(s.cfg.data_dir, 'scout', { scope: 'read' })}\n`, { mode: 0o600 });
  t.ok(revokeAgent(s.cfg.data_dir, 'scout', new Date()).ok);
  const madeUp = path.join(dir, 'made-up.token');
  writeFileSync(madeUp, 'mv_not-a-token-anyone-was-given\n', { mode: 0o600 });

  for (const file of [revoked, madeUp]) {
    const r = await mcp(['--config', s.cfg.config_file!, '--vault', s.v.dir, '--token-file', file], {});
    t.equal(r.code, 1, `${path.basename(file)}: ${r.stderr}`);
    t.equal(r.stdout, '', 'no MCP session was served');
    t.match(r.stderr, /^memvault: unauthorized: the daemon at http:\/\/127\.0\.0\.1:\d+ refused the token in .+; /);
    t.equal(r.stderr.split('\n').filter(Boolean).length, 1, 'one line');
  }
});

t.test('against the daemon it starts itself, which it stops again', async (t) => {
  const v = makeVault({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const file = path.join(path.dirname(v.dir), 'made-up.token');
  writeFileSync(file, 'mv_not-a-token-anyone-was-given\n', { mode: 0o600 });
  const r = await mcp(['--config', cfg.config_file!, '--vault', v.dir, '--token-file', file], {});
  t.equal(r.code, 1, r.stderr);
  t.equal(r.stdout, '');
  t.match(r.stderr, /memvault: unauthorized: the daemon at http:\/\/127\.0\.0\.1:\d+ refused the token in /);
  t.notOk(existsSync(path.join(cfg.data_dir, 'daemon.json')), 'the daemon it started is gone and unregistered');
});

t.test('an empty token file is refused at start, never taken as the owner token', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Heron.md': '# Heron\n' });
  t.teardown(() => s.stop());
  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const file = path.join(path.dirname(s.v.dir), 'empty.token');
  writeFileSync(file, '\n', { mode: 0o600 });
  const r = await mcp(['--config', s.cfg.config_file!, '--vault', s.v.dir, '--token-file', file], {});
  t.equal(r.code, 1, r.stderr);
  t.equal(r.stdout, '', 'no MCP session was served (with the owner token it would have been)');
  t.equal(
    r.stderr,
    `memvault: unauthorized: the token file ${file} is empty; put the agent's token in it (memvault agents add NAME, or agents rotate NAME, prints one)\n`,
  );
});
