// Test harness: a real daemon (real worker threads, SQLite file, model, watched folder) on a temp vault.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../config/load.js';
import { makeLogger } from '../../actors/common/log.js';
import { Daemon } from '../../supervisors/daemon.js';

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
  writeFileSync(file, `data_dir: ${JSON.stringify(dataDir)}\nlisten: 127.0.0.1:0\nlog:\n  level: ${opts.logLevel ?? 'silent'}\nwatcher:\n  debounce_ms: 30\n  rename_window_ms: 400\n${yaml}`);
  const cfg = loadConfig({ file, vault });
  mkdirSync(path.join(dataDir, 'models'), { recursive: true });
  return cfg;
}

export interface Running {
  daemon: Daemon;
  cfg: Config;
  url: string;
  token: string;
  api<T = any>(method: 'GET' | 'POST', route: string, body?: unknown, token?: string | null): Promise<{ status: number; body: T }>;
  search(query: string, extra?: Record<string, unknown>): Promise<any>;
  stop(): Promise<void>;
}

export async function startDaemon(cfg: Config, mode: 'serve' | 'oneshot' = 'serve'): Promise<Running> {
  const daemon = new Daemon(cfg, { mode, log: makeLogger('main', { level: 'silent' }) });
  await daemon.start();
  const url = `http://127.0.0.1:${daemon.board.get('gatewayPort')}`;
  const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
  const api = async <T>(method: 'GET' | 'POST', route: string, body?: unknown, tok: string | null = token) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (tok !== null) headers.authorization = `Bearer ${tok}`;
    const r = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* metrics are text */
    }
    return { status: r.status, body: parsed as T };
  };
  return {
    daemon,
    cfg,
    url,
    token,
    api,
    async search(query, extra = {}) {
      const r = await api('POST', '/v1/search', { query, ...extra });
      if (r.status !== 200) throw new Error(`search failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    stop: () => daemon.stop('test done', 0),
  };
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

/** Resolves when the supervisor next restarts `child`. */
export function nextRestart(daemon: Daemon, child: string): Promise<void> {
  return new Promise((resolve) => {
    const off = daemon.onSupervisor((e) => {
      if (e.type === 'supervisor.child_restarted' && e.child === child) {
        off();
        resolve();
      }
    });
  });
}
