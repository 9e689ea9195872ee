// Finds a running daemon for a vault (its data dir's daemon.json) and calls its HTTP API with the token.
import { readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../supervisors/runtime/pid-alive.js';

export interface DaemonInfo {
  pid: number;
  url: string;
  started_at: string;
}

export function daemonInfoFile(dataDir: string): string {
  return path.join(dataDir, 'daemon.json');
}

export function writeDaemonInfo(dataDir: string, info: DaemonInfo): void {
  const file = daemonInfoFile(dataDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(info, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
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

/** The daemon serving this data dir, if one answers /healthz. */
export async function findDaemon(dataDir: string): Promise<{ url: string; token: string } | null> {
  const info = readDaemonInfo(dataDir);
  if (!info || !pidAlive(info.pid)) return null;
  try {
    const r = await fetch(`${info.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    if (!r.ok) return null;
    const token = readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
    return { url: info.url, token };
  } catch {
    return null;
  }
}

export async function callDaemon<T>(
  d: { url: string; token: string },
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<T> {
  const r = await fetch(`${d.url}${route}`, {
    method,
    // the CLI's own calls are recorded as `cli` (commits, audit), as its tool calls are (tool-call.ts)
    headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json', 'x-memvault-agent': 'cli' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = (await r.json()) as T & { error?: { reason: string; message: string } };
  if (!r.ok) {
    const e = new Error(json.error ? `${json.error.reason}: ${json.error.message}` : `HTTP ${r.status}`) as Error & { code?: string };
    e.code = json.error?.reason ?? 'http_error';
    throw e;
  }
  return json;
}
