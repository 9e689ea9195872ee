// Test harness: a real daemon (real worker threads, SQLite file, model, watched folder) on a temp vault.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../config/load.js';
import { makeLogger } from '../../supervisors/runtime/log.js';
import { startOverDamage } from '../../main/start-over-damage.js';
import { Daemon } from '../../main/daemon.js';
import type { SupervisorEvent } from '../../supervisors/events.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const EXAMPLE_VAULT = path.join(REPO, 'examples/vault');

export interface TestVault {
  dir: string;
  write(rel: string, content: string | Buffer): string;
  remove(rel: string): void;
  cleanup(): void;
}

export function makeVault(files: Record<string, string | Buffer> = {}, opts: { copyExample?: boolean } = {}): TestVault {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-test-'));
  const dir = path.join(root, 'vault');
  mkdirSync(dir);
  if (opts.copyExample) cpSync(EXAMPLE_VAULT, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.memvault`) });
  const v: TestVault = {
    dir,
    write(rel, content) {
      const p = path.join(dir, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
      return p;
    },
    remove(rel) {
      rmSync(path.join(dir, rel), { force: true, recursive: true });
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  for (const [rel, c] of Object.entries(files)) v.write(rel, c);
  return v;
}

export function testConfig(vault: string, yaml = '', opts: { logLevel?: string } = {}): Config {
  const dataDir = path.join(path.dirname(vault), 'data');
  const file = path.join(path.dirname(vault), 'memvault.yaml');
  writeFileSync(
    file,
    `data_dir: ${JSON.stringify(dataDir)}\nlisten: 127.0.0.1:0\nlog:\n  level: ${opts.logLevel ?? 'silent'}\nwatcher:\n  debounce_ms: 30\n  rename_window_ms: 400\n${yaml}`,
  );
  const cfg = loadConfig({ file, vault });
  mkdirSync(path.join(dataDir, 'models'), { recursive: true });
  return cfg;
}

export interface Running {
  daemon: Daemon;
  cfg: Config;
  url: string;
  token: string;
  api<T = any>(method: 'GET' | 'POST', route: string, body?: unknown, token?: string | null): Promise<HttpAnswer<T>>;
  /** POST /v1/tools/<name> as `agent` (X-Memvault-Agent). */
  tool<T = any>(name: string, args: Record<string, unknown>, agent?: string): Promise<HttpAnswer<T>>;
  search(query: string, extra?: Record<string, unknown>): Promise<any>;
  stop(): Promise<void>;
}

export interface HttpAnswer<T = any> {
  status: number;
  retryAfter: string | null;
  /** The JSON body, or the text when it is not JSON (metrics). */
  body: T;
}

/** One HTTP request to a daemon: a JSON body out, JSON (or text) back; `token: null` sends no Authorization. */
export async function httpCall<T = any>(
  url: string,
  method: 'GET' | 'POST',
  route: string,
  body: unknown,
  opts: { token: string | null; agent?: string; timeoutMs?: number },
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token}`;
  if (opts.agent !== undefined) headers['x-memvault-agent'] = opts.agent;
  const r = await fetch(`${url}${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    ...(opts.timeoutMs !== undefined ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
  });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* metrics are text */
  }
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: parsed as T };
}

/** `overDamage`: started as `memvault start` starts it, once more over a fresh index if a damaged page stops it. */
export async function startDaemon(cfg: Config, mode: 'serve' | 'oneshot' = 'serve', opts: { overDamage?: boolean } = {}): Promise<Running> {
  const log = makeLogger('main', { level: 'silent' });
  const make = () => new Daemon(cfg, { mode, log });
  const daemon = opts.overDamage ? await startOverDamage(cfg, log, make) : make();
  if (!opts.overDamage) await daemon.start();
  const url = `http://127.0.0.1:${daemon.board.get('gatewayPort')}`;
  const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
  const api = <T>(method: 'GET' | 'POST', route: string, body?: unknown, tok: string | null = token) =>
    httpCall<T>(url, method, route, body, { token: tok });
  return {
    daemon,
    cfg,
    url,
    token,
    api,
    tool: (name, args, agent) => httpCall(url, 'POST', `/v1/tools/${name}`, args, { token, ...(agent !== undefined ? { agent } : {}) }),
    async search(query, extra = {}) {
      const r = await api('POST', '/v1/search', { query, ...extra });
      if (r.status !== 200) throw new Error(`search failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    stop: () => daemon.stop('test done', 0),
  };
}

/**
 * A daemon on a fresh vault of `files` (settings `yaml`, see testConfig), caught up; stopped and the vault removed
 * when the test ends.
 */
export async function daemonOn(
  t: { teardown(fn: () => unknown): void },
  files: Record<string, string | Buffer>,
  yaml = '',
  opts: { copyExample?: boolean } = {},
): Promise<{ v: TestVault; d: Running }> {
  const v = makeVault(files, opts);
  t.teardown(() => v.cleanup());
  const d = await startDaemon(testConfig(v.dir, yaml));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  return { v, d };
}

/** The index's tables agree with each other (FTS, vectors, chunks, documents): every drift counter is zero. */
export async function indexConsistency(dataDir: string): Promise<Record<string, number>> {
  const { openIndex } = await import('../../actors/store-writer/schema.js');
  const { IndexReader } = await import('../../actors/store-writer/index-reader.js');
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    return { ...new IndexReader(db).consistency() };
  } finally {
    db.close();
  }
}

export function allZero(o: Record<string, number>): boolean {
  return Object.values(o).every((v) => v === 0);
}

/** Resolves with the first supervisor event matching `pred` from now on. */
export function nextEvent(daemon: Daemon, pred: (e: SupervisorEvent) => boolean): Promise<SupervisorEvent> {
  return new Promise((resolve) => {
    const off = daemon.onSupervisor((e) => {
      if (pred(e)) {
        off();
        resolve(e);
      }
    });
  });
}

/** Resolves when the supervisor next restarts `child`. */
export async function nextRestart(daemon: Daemon, child: string): Promise<void> {
  await nextEvent(daemon, (e) => e.type === 'supervisor.child_restarted' && e.child === child);
}

/** Rejects with `what` after `ms`: a wait in a test ends in a failure that says what did not happen, never a hang. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
  );
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Plain git in `dir` (no user or system config), stdout as text; throws on a non-zero exit. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}
