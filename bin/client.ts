// Finds a running daemon for a vault (its data dir's daemon.json) and calls its HTTP API with the token.
import { readFileSync, realpathSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import type { Config } from '../config/load.js';
import { pidAlive } from '../supervisors/runtime/pid-alive.js';
import { claimFile } from '../main/pid-claim.js';
import { CommandFailure } from './args.js';

export interface DaemonInfo {
  pid: number;
  url: string;
  started_at: string;
  /**
   * The real paths of the vault the daemon serves and of its data dir: a vault folder copied while its daemon runs
   * carries this file along, and the copy's commands must not talk to the original's daemon. Absent in a file
   * written before they were recorded.
   */
  vault?: string;
  data_dir?: string;
}

type VaultDirs = Pick<Config, 'vault' | 'data_dir'>;

/** The real path of `p`, or `p` made absolute while it does not exist. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export function daemonInfoFile(dataDir: string): string {
  return path.join(dataDir, 'daemon.json');
}

/** Registers the daemon this process runs for `cfg`'s vault, with the vault's and the data dir's real paths. */
export function writeDaemonInfo(cfg: VaultDirs, info: Pick<DaemonInfo, 'pid' | 'url' | 'started_at'>): void {
  const file = daemonInfoFile(cfg.data_dir);
  const full: DaemonInfo = { ...info, vault: real(cfg.vault), data_dir: real(cfg.data_dir) };
  writeFileSync(`${file}.tmp`, JSON.stringify(full, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
}

/**
 * The start-up claim on a data dir, `daemon.starting` made exclusively with this pid, held from the check for a
 * running daemon until daemon.json names the new one: two starts at once both found no daemon.json and both served.
 * A claim whose process is gone (killed while starting) is taken over; one held by a live process is `heldBy`.
 */
export function claimStart(dataDir: string): { release(): void } | { heldBy: number } {
  const file = path.join(dataDir, 'daemon.starting');
  const claim = claimFile(file);
  if ('stuck' in claim) throw new CommandFailure(`cannot claim ${file}: another start keeps making it; try again`);
  return claim;
}

export function removeDaemonInfo(dataDir: string, pid: number): void {
  const info = readDaemonInfo(dataDir);
  if (info?.pid === pid) rmSync(daemonInfoFile(dataDir), { force: true });
}

export function readDaemonInfo(dataDir: string): DaemonInfo | null {
  try {
    return JSON.parse(readFileSync(daemonInfoFile(dataDir), 'utf8')) as DaemonInfo;
  } catch {
    return null;
  }
}

/**
 * How long a live daemon's /healthz may take. Only a process that accepts the connection and then stalls costs the
 * wait (a dead pid or a closed port answers at once); under a load of ~14 on 2 cores, 1 s was once not enough, and
 * `memvault mcp` started a second daemon beside the running one.
 */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * The daemon serving this vault, if its data dir's daemon.json names one that answers /healthz. One that serves
 * another vault is not it: when the file came along with a copied folder (another data dir), null, with a note on
 * stderr, so the command works on this vault directly; when that daemon uses this very data dir, a CommandFailure,
 * since working beside it (or starting a second daemon on its index) would mix two vaults.
 */
export async function findDaemon(cfg: VaultDirs): Promise<{ url: string; token: string } | null> {
  const info = readDaemonInfo(cfg.data_dir);
  if (!info || !pidAlive(info.pid)) return null;
  try {
    const r = await fetch(`${info.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    if (!r.ok) return null;
  } catch {
    return null;
  }
  if (info.vault !== undefined && info.vault !== real(cfg.vault)) {
    if (info.data_dir === real(cfg.data_dir))
      throw new CommandFailure(
        `the daemon at ${info.url} serves ${info.vault} with the data dir ${cfg.data_dir}: give ${cfg.vault} a data dir of its own (data_dir, MEMVAULT_DATA_DIR)`,
      );
    process.stderr.write(
      `memvault: ignoring the daemon at ${info.url}: it serves ${info.vault}, not ${cfg.vault} (its daemon.json came along with a copy of the folder?)\n`,
    );
    return null;
  }
  try {
    return { url: info.url, token: readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim() };
  } catch {
    return null;
  }
}

export async function callDaemon<T>(
  d: { url: string; token: string },
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  /** null: wait as long as the daemon takes (a reindex answers once the whole vault is indexed again). */
  timeoutMs: number | null = 30_000,
): Promise<T> {
  // the CLI's own calls are recorded as `cli` (commits, audit), as its tool calls are (tool-call.ts)
  const headers = { authorization: `Bearer ${d.token}`, 'content-type': 'application/json', 'x-memvault-agent': 'cli' };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const r =
    timeoutMs === null
      ? await untimed(`${d.url}${route}`, method, headers, payload)
      : await fetch(`${d.url}${route}`, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) });
  const json = (await r.json()) as T & { error?: { reason: string; message: string } };
  if (!r.ok) {
    const e = new Error(json.error ? `${json.error.reason}: ${json.error.message}` : `HTTP ${r.status}`) as Error & { code?: string };
    e.name = 'DaemonRefusal'; // the daemon's own answer, with its reason: said in one line (cli.ts)
    e.code = json.error?.reason ?? 'http_error';
    throw e;
  }
  return json;
}

/**
 * A request with no time limit at all: fetch gives up after 300 s without response headers (undici's headersTimeout)
 * whatever its signal says, and a reindex of a large vault takes longer.
 */
function untimed(
  url: string,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ ok: status >= 200 && status < 300, status, json: async () => JSON.parse(text) as unknown });
      });
    });
    // a connection lost mid-call (the daemon killed) rejects as fetch does, so the CLI says it in one line, not a stack
    req.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
    req.end(payload);
  });
}
