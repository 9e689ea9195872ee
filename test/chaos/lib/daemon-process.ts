// The real daemon as a separate OS process (`bin/memvault start`), for chaos runs: start, wait until it serves,
// call its HTTP API, kill -9 it, and wait for the index to catch up — all from outside, as an operator would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, httpCall, type HttpAnswer } from '../../helpers/daemon.js';

export interface ProcessDaemonOpts {
  vault: string;
  /** A config file (see testConfig in test/helpers/daemon.ts); its data_dir is `dataDir`. */
  configFile: string;
  dataDir: string;
  /** The child's stdout and stderr are appended here. */
  logFile: string;
  /** Extra environment (e.g. libfaketime settings). */
  env?: Record<string, string>;
  /** Wrap the node command (e.g. ['faketime', '-f', '+0d']). */
  wrap?: string[];
}

export type ApiResult<T = any> = HttpAnswer<T>;

export interface Started {
  /** Spawn → the first search answered with 200. */
  servingMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value other than undefined; throws after `timeoutMs` with `what` and the last error. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 25): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(everyMs);
  }
}

export class ProcessDaemon {
  child: ChildProcess | null = null;
  url = '';
  token = '';
  /** Agents that call with their own credential (agents.json); others use the owner token and name themselves by header. */
  agentTokens: Record<string, string> = {};
  exited: Promise<number | null> = Promise.resolve(null);

  constructor(readonly o: ProcessDaemonOpts) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process and resolves once it answers a search (the gateway serves from the index on disk). */
  async start(timeoutMs = 60_000): Promise<Started> {
    if (this.child) throw new Error('already started');
    const t0 = performance.now();
    const argv = [path.join(REPO, 'bin/memvault'), 'start', '--vault', this.o.vault, '--config', this.o.configFile];
    const [cmd, ...args] = this.o.wrap ? [...this.o.wrap, process.execPath, ...argv] : [process.execPath, ...argv];
    const log = createWriteStream(this.o.logFile, { flags: 'a' });
    const child = spawn(cmd!, args, { env: { ...process.env, ...this.o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let dead = false;
    void this.exited.then(() => (dead = true));
    await until('the daemon to write daemon.json', timeoutMs, async () => {
      if (dead) throw Object.assign(new Error(`the daemon exited during start; see ${this.o.logFile}`), { fatal: true });
      const info = JSON.parse(readFileSync(path.join(this.o.dataDir, 'daemon.json'), 'utf8')) as { pid: number; url: string };
      return info.pid === child.pid ? info : undefined;
    }).then((info) => {
      this.url = info.url;
    });
    this.token = readFileSync(path.join(this.o.dataDir, 'token'), 'utf8').trim();
    await until('the first search to answer', timeoutMs, async () => {
      if (dead) throw new Error(`the daemon exited; see ${this.o.logFile}`);
      const r = await this.api('POST', '/v1/search', { query: 'note', mode: 'bm25', k: 1 });
      return r.status === 200 ? true : undefined;
    });
    return { servingMs: performance.now() - t0 };
  }

  api<T = any>(
    method: 'GET' | 'POST',
    route: string,
    body?: unknown,
    opts: { agent?: string; timeoutMs?: number } = {},
  ): Promise<ApiResult<T>> {
    return httpCall<T>(this.url, method, route, body, {
      token: this.token,
      timeoutMs: opts.timeoutMs ?? 120_000,
      ...(opts.agent ? { agent: opts.agent } : {}),
    });
  }

  tool<T = any>(name: string, args: Record<string, unknown>, agent: string): Promise<ApiResult<T>> {
    const own = this.agentTokens[agent];
    if (own) return httpCall<T>(this.url, 'POST', `/v1/tools/${name}`, args, { token: own, timeoutMs: 120_000 });
    return this.api<T>('POST', `/v1/tools/${name}`, args, { agent });
  }

  /**
   * Resolves when the boot reconcile is done, nothing is pending or in flight (notes, episodes and facts alike: the
   * journal replayed), and git writes are available.
   */
  async caughtUp(timeoutMs = 120_000): Promise<void> {
    await until(
      'the index to catch up',
      timeoutMs,
      async () => {
        const s = (await this.api('GET', '/v1/status')).body?.index;
        const episodes = s?.episodes === undefined || (s.episodes.pending === 0 && !s.episodes.replaying);
        return s?.reconciled && s.pending === 0 && s.in_flight === 0 && episodes ? true : undefined;
      },
      50,
    );
    await until(
      'git writes to be available',
      timeoutMs,
      async () => {
        const r = await this.api('GET', '/v1/tools');
        return r.body?.writes?.available ? true : undefined;
      },
      50,
    );
  }

  /** SIGKILL: no handler runs, nothing is flushed — a power cut for this process. */
  async kill9(): Promise<void> {
    const c = this.child;
    if (!c) return;
    c.kill('SIGKILL');
    await this.exited;
    this.child = null;
  }

  /** SIGTERM and wait: the graceful path. */
  async stop(): Promise<number | null> {
    const c = this.child;
    if (!c) return null;
    c.kill('SIGTERM');
    const code = await this.exited;
    this.child = null;
    return code;
  }

  /** Resident set size of the daemon process (all its threads), from /proc; 0 when unknown. */
  rssBytes(): number {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  }
}
