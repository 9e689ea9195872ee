// `memvault mcp`: MCP over stdio for agents that spawn a command. Forwards to the daemon serving the vault, or
// runs one in this process when none does; stdout is the MCP channel, so every log goes to stderr.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeLogger } from '../../supervisors/runtime/log.js';
import { VERSION } from '../../supervisors/runtime/version.js';
import { mcpInstructions } from '../../actors/gateway/tools/instructions.js';
import { runStdioProxy, type Upstream } from '../../actors/gateway/tools/stdio-proxy.js';
import { Daemon } from '../../main/daemon.js';
import { startOverDamage } from '../../main/start-over-damage.js';
import { CommandFailure, configFor, EXIT, requireVault, type Args } from '../args.js';
import { findDaemon, removeDaemonInfo, writeDaemonInfo } from '../client.js';

export async function mcpCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: true });
  if (!(await findDaemon(cfg))) requireVault(cfg);
  // `--agent NAME` (when the CLI parses it), else MEMVAULT_AGENT, else the MCP client's own name
  const agent = (a as Args & { agent?: string }).agent ?? process.env['MEMVAULT_AGENT'];
  const log = makeLogger('main', { level: cfg.log.level, dataDir: cfg.data_dir });
  let daemon: Daemon | null = null;

  // `--token-file F`: call as that agent (its own credential and grant) rather than with the owner token
  const agentToken = a.tokenFile !== undefined ? readFileSync(a.tokenFile, 'utf8').trim() : null;
  // an empty file (a redirect that failed, a secret not filled in yet) is no credential: against a running daemon it
  // fell back to the owner token, so the agent's session ran with admin rights
  if (agentToken === '')
    throw new CommandFailure(
      `unauthorized: the token file ${a.tokenFile} is empty; put the agent's token in it (memvault agents add NAME, or agents rotate NAME, prints one)`,
    );
  const upstream: Promise<Upstream> = (async () => {
    const running = await findDaemon(cfg);
    if (running) return agentToken ? { ...running, token: agentToken } : running;
    // no daemon for this vault: run one here, on a free loopback port, registered so other commands find it
    // over an index with a damaged page, once more over a fresh one (the damaged one kept aside), as `memvault start`
    const d = await startOverDamage(cfg, log, () => new Daemon({ ...cfg, listen: '127.0.0.1:0' }, { mode: 'serve', log }));
    daemon = d;
    const url = `http://127.0.0.1:${d.board.get('gatewayPort')}`;
    writeDaemonInfo(cfg, { pid: process.pid, url, started_at: new Date().toISOString() });
    log.event('daemon_started', { url, pid: process.pid, for: 'mcp stdio' });
    return { url, token: agentToken ?? readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim() };
  })();
  upstream.catch((err: unknown) =>
    log.error({ err: String((err as Error)?.stack ?? err) }, 'could not reach or start a daemon; tool calls answer `unavailable`'),
  );
  // an agent's token is put to the daemon once, before any MCP session: a revoked or made-up one connected fine and
  // then had every call answer `unauthorized`
  if (agentToken !== null && a.tokenFile !== undefined) {
    const up = await upstream.catch(() => null);
    const refused = up ? await tokenRefused(up, a.tokenFile) : null;
    if (refused !== null) {
      const d = daemon as Daemon | null;
      if (d) {
        await d.stop('mcp stdio: token refused');
        removeDaemonInfo(cfg.data_dir, process.pid);
      }
      process.stdin.destroy();
      throw new CommandFailure(refused);
    }
  }

  const proxy = await runStdioProxy({
    upstream,
    agent,
    version: VERSION,
    instructions: mcpInstructions({ writable: cfg.writes.enabled ? cfg.writes.allowlist : [] }),
    onError: (what, err) =>
      log.warn(
        { event: 'gateway_request', transport: 'stdio', what, err: String((err as Error)?.message ?? err) },
        'the daemon did not answer',
      ),
  });
  const signalled = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await Promise.race([proxy.closed, signalled]);
  await proxy.close();
  await upstream.catch(() => null); // a daemon still starting is stopped only once it is up
  const d = daemon as Daemon | null;
  if (d) {
    await d.stop('mcp stdio closed');
    removeDaemonInfo(cfg.data_dir, process.pid);
  }
  process.stdin.destroy();
  return EXIT.ok;
}

/**
 * Why the daemon refuses `up.token` (`unauthorized: …`), or null when it takes it (or could not say: the session then
 * starts, and calls report what they meet). An MCP initialize at /mcp: what the proxy sends first anyway, and it spends
 * none of the agent's rate nor writes an audit line unless it is refused.
 */
async function tokenRefused(up: Upstream, tokenFile: string): Promise<string | null> {
  let status: number;
  try {
    const r = await fetch(new URL('/mcp', up.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${up.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-memvault-transport': 'stdio',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'memvault-token-check', version: VERSION },
        },
      }),
      signal: AbortSignal.timeout(30_000),
    });
    status = r.status;
    await r.body?.cancel();
  } catch {
    return null;
  }
  if (status !== 401) return null;
  return `unauthorized: the daemon at ${up.url} refused the token in ${tokenFile}; it was revoked or rotated, or is not one of this vault's agents (memvault agents list; rotate gives a new one)`;
}
