// `memvault start`: runs the supervisor in the foreground until SIGTERM/SIGINT/SIGHUP, then shuts down cleanly.
import path from 'node:path';
import { makeLogger, type EventLogger } from '../../supervisors/runtime/log.js';
import { splitListen, type Config } from '../../config/load.js';
import { mkdirSync } from 'node:fs';
import { Daemon } from '../../main/daemon.js';
import { ensureToken } from '../../main/data-dir.js';
import { DaemonStartFailure } from '../../main/start-failure.js';
import { startOverDamage } from '../../main/start-over-damage.js';
import { CommandFailure, configFor, EXIT, requireVault, type Args } from '../args.js';
import { claimStart, findDaemon, removeDaemonInfo, writeDaemonInfo } from '../client.js';
import { loginLink } from '../../actors/gateway/page/session.js';

export async function start(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: true });
  requireVault(cfg);
  // two starts at once both found no daemon.json (it is written once the daemon is up, ~2 s later) and both served:
  // the start-up claim makes the check and the start one step per data dir
  mkdirSync(cfg.data_dir, { recursive: true, mode: 0o700 });
  const claim = claimStart(cfg.data_dir);
  if ('heldBy' in claim) {
    process.stderr.write(`memvault: a daemon is starting on ${cfg.vault} (pid ${claim.heldBy})\n`);
    return EXIT.failure;
  }
  let up: Launched | number;
  try {
    up = await launch(cfg);
  } finally {
    claim.release();
  }
  if (typeof up === 'number') return up;
  const bin = path.relative(process.cwd(), process.argv[1] ?? 'memvault') || 'memvault';
  return serve(cfg, up, bin);
}

interface Launched {
  daemon: Daemon;
  log: EventLogger;
  url: string;
}

/** The daemon started and named in daemon.json, or the exit code of a start refused (one already serves, a weak token). */
async function launch(cfg: Config): Promise<Launched | number> {
  const { host } = splitListen(cfg.listen);
  const running = await findDaemon(cfg);
  if (running) {
    process.stderr.write(`memvault: a daemon already serves ${cfg.vault} at ${running.url}\n`);
    return EXIT.failure;
  }
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  if (!loopback) {
    // off the loopback interface every /v1 and /mcp call must carry the token: refuse to start without a strong one
    const token = ensureToken(cfg.data_dir);
    if (token.length < 32) {
      process.stderr.write(
        `memvault: refusing to listen on ${cfg.listen} (not loopback) with a weak token in ${cfg.data_dir}/token: delete it to generate a new one\n`,
      );
      return EXIT.failure;
    }
  }
  const log = makeLogger('main', { level: cfg.log.level, dataDir: cfg.data_dir });
  log.event('config_loaded', {
    vault: cfg.vault,
    data_dir: cfg.data_dir,
    listen: cfg.listen,
    provider: cfg.embedder.provider,
    file: cfg.config_file,
  });
  let daemon: Daemon;
  try {
    daemon = await startOverDamage(cfg, log, () => new Daemon(cfg, { mode: 'serve', log }));
  } catch (err) {
    // the daemon has ended what it started: one line and exit 1, not a supervisor's stack trace
    if (err instanceof DaemonStartFailure) throw new CommandFailure(startFailureLine(err, cfg.listen));
    throw err;
  }
  const port = daemon.board.get('gatewayPort');
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  writeDaemonInfo(cfg, { pid: process.pid, url, started_at: new Date().toISOString() });
  log.event('daemon_started', { url, pid: process.pid });
  return { daemon, log, url };
}

async function serve(cfg: Config, { daemon, log, url }: Launched, bin: string): Promise<number> {
  process.stderr.write(
    [
      '',
      `memvault is serving ${cfg.vault}`,
      `  page:     ${loginLink(url, ensureToken(cfg.data_dir))}`,
      `            (a one-time login link for the status page, valid 10 minutes; \`memvault open --vault ${cfg.vault}\` makes another)`,
      `  search:   ${bin} search --vault ${cfg.vault} "your question"`,
      `            curl -H "Authorization: Bearer $(cat ${cfg.data_dir}/token)" -d '{"query":"..."}' ${url}/v1/search`,
      `  status:   ${url}/v1/status (token in ${cfg.data_dir}/token)`,
      `  metrics:  ${url}/metrics  (Prometheus scrape target)`,
      `  mcp:      ${url}/mcp  (Streamable HTTP; same token; or \`memvault mcp --vault ${cfg.vault}\` over stdio)`,
      '  stop:     Ctrl-C',
      '',
    ].join('\n') + '\n',
  );
  // SIGHUP too (the terminal running it closed, a stray `kill -HUP`): Node's default for it was to die on the spot, with
  // no shutdown, daemon.json left behind and exit 129, which systemd's Restart=on-failure does not restart
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const stopped = new Promise<number>((resolve) => {
    const onSignal = (sig: NodeJS.Signals) => {
      for (const s of signals) process.off(s, onSignal);
      daemon.stop(sig).then(
        () => resolve(EXIT.ok),
        () => resolve(EXIT.failure),
      );
    };
    for (const s of signals) process.on(s, onSignal);
    void daemon.root!.exited.then((exit) => {
      if (exit.kind !== 'normal') {
        log.error({ event: 'actor_escalated', exit }, 'the supervision tree gave up');
        resolve(EXIT.failure);
      }
    });
  });
  const code = await stopped;
  removeDaemonInfo(cfg.data_dir, process.pid);
  return code;
}

/** What a failed start says: the listen address and what to do when the gateway could not listen, else the actor and why. */
export function startFailureLine(f: DaemonStartFailure, listen: string): string {
  if (f.child === 'gateway') {
    const fix = 'stop what listens there or choose another address with --listen (or MEMVAULT_LISTEN)';
    if (f.reason === 'EADDRINUSE') return `${listen} is in use (EADDRINUSE): ${fix}`;
    if (f.reason === 'EACCES') return `${listen} needs privileges this user lacks (EACCES): choose a port above 1023 with --listen`;
    if (f.reason === 'EADDRNOTAVAIL')
      return `${listen} is not an address of this machine (EADDRNOTAVAIL): choose another with --listen (or MEMVAULT_LISTEN)`;
    // a host name no resolver knows (a typo) was said as the gateway worker's exit during init
    if (f.reason === 'ENOTFOUND' || f.reason === 'EAI_AGAIN')
      return `${listen}: the host ${splitListen(listen).host} cannot be resolved (${f.reason}): choose another address with --listen (or MEMVAULT_LISTEN)`;
  }
  return `the daemon could not start: ${f.child} failed (${f.reason}): ${f.message}`;
}
