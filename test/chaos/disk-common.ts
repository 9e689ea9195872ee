// Shared parts of the disk and clock fault runs: a checks list, a daemon process on a temp vault, and the questions
// every scenario asks afterwards — does the index equal the vault, is git sound, what did the daemon log.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_IGNORE } from '../../config/schema.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { SOURCE_VAULT } from '../../messages/common.js';
import { makeIgnore, scanVault } from '../../actors/watcher/scan.js';
import { makeVault, testConfig, type TestVault } from '../helpers/daemon.js';
import { ProcessDaemon, until } from './lib/daemon-process.js';
import { sha256 } from './lib/ledger.js';

const run = promisify(execFile);

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  ms?: number;
}

export interface DiskClockReport {
  checks: Check[];
  problems: string[];
}

/** Collects checks; every failed one is also a problem line. */
export class Checks {
  readonly checks: Check[] = [];
  readonly problems: string[] = [];

  add(name: string, ok: boolean, detail: string, ms?: number): boolean {
    this.checks.push(ms === undefined ? { name, ok, detail } : { name, ok, detail, ms: Math.round(ms) });
    if (!ok) this.problems.push(`${name}: ${detail}`);
    return ok;
  }

  /** Runs `fn`; a throw becomes a failed check named `name` instead of ending the run. */
  async guard(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.add(name, false, `threw: ${(err as Error).stack ?? String(err)}`);
    }
  }

  report(): DiskClockReport {
    return { checks: this.checks, problems: this.problems };
  }
}

export interface Rig {
  vault: TestVault;
  dataDir: string;
  logFile: string;
  daemon: ProcessDaemon;
}

/** A temp vault with `files` and a daemon process for it (not started). `prepare` runs before the daemon exists. */
export function makeRig(
  files: Record<string, string>,
  o: { yaml?: string; env?: Record<string, string>; prepare?: (dir: string) => void } = {},
): Rig {
  const vault = makeVault({});
  o.prepare?.(vault.dir);
  for (const [rel, c] of Object.entries(files)) vault.write(rel, c);
  const cfg = testConfig(vault.dir, `writes:\n  human_quiet_ms: 200\n${o.yaml ?? ''}`, { logLevel: 'info' });
  const logFile = path.join(path.dirname(vault.dir), 'daemon.log');
  const daemon = new ProcessDaemon({
    vault: vault.dir,
    configFile: cfg.config_file ?? path.join(path.dirname(vault.dir), 'memvault.yaml'),
    dataDir: cfg.data_dir,
    logFile,
    env: o.env,
  });
  return { vault, dataDir: cfg.data_dir, logFile, daemon };
}

export async function git(cwd: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run('git', args, { cwd, maxBuffer: 64 << 20, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
    return { code: 0, out: `${r.stdout}${r.stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export async function commitCount(vault: string): Promise<number> {
  const r = await git(vault, ['rev-list', '--count', 'HEAD']);
  return r.code === 0 ? Number(r.out.trim()) : -1;
}

/** Commit subjects, newest first. */
export async function commitLog(vault: string): Promise<string[]> {
  const r = await git(vault, ['log', '--format=%s|%an']);
  return r.code === 0 ? r.out.trim().split('\n') : [];
}

export async function fsck(vault: string): Promise<string | null> {
  const r = await git(vault, ['fsck', '--strict', '--no-progress']);
  return r.code === 0 ? null : r.out.trim().slice(0, 400) || `exit ${r.code}`;
}

/** Temp files of atomic writes (`.<name>.<12 hex>.tmp`) anywhere under the vault. */
export function tempFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (r !== '.git') out.push(...tempFiles(root, r));
    } else if (/^\..+\.[0-9a-f]{12}\.tmp$/.test(e.name)) out.push(r);
  }
  return out;
}

/** The index's documents (path → content hash) and its internal consistency counters. */
export function indexContents(dataDir: string): { docs: Map<string, string>; consistency: Record<string, number> } {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    const r = new IndexReader(db);
    const docs = new Map<string, string>();
    for (const [p, st] of r.documentStats(SOURCE_VAULT)) docs.set(p, st.contentHash);
    return { docs, consistency: { ...r.consistency() } };
  } finally {
    db.close();
  }
}

/** Every difference between the notes on disk and the index (empty when they match exactly). */
export async function indexVsVault(vault: string, dataDir: string): Promise<string[]> {
  const { files } = scanVault(vault, makeIgnore(DEFAULT_IGNORE));
  const { docs, consistency } = indexContents(dataDir);
  const out: string[] = [];
  const disk = new Map<string, string>(files.map((f) => [f.path, sha256(readFileSync(path.join(vault, f.path)))]));
  for (const [p, h] of disk)
    if (docs.get(p) !== h) out.push(`${p}: disk ${h.slice(0, 12)}, index ${docs.get(p)?.slice(0, 12) ?? 'absent'}`);
  for (const p of docs.keys()) if (!disk.has(p)) out.push(`${p}: in the index, not on disk`);
  for (const [k, v] of Object.entries(consistency)) if (v !== 0) out.push(`consistency ${k} = ${v}`);
  return out;
}

/** Waits until the daemon reports itself caught up and the index equals the vault; returns the remaining differences on timeout. */
export async function settle(r: Rig, timeoutMs = 60_000): Promise<string[]> {
  let diff: string[] = ['not checked'];
  try {
    await until(
      'the index to equal the vault',
      timeoutMs,
      async () => {
        const s = (await r.daemon.api('GET', '/v1/status')).body?.index;
        if (!(s?.reconciled && s.pending === 0 && s.in_flight === 0)) {
          diff = [
            `not caught up: reconciled ${s?.reconciled}, pending ${s?.pending}, in flight ${s?.in_flight}, oldest pending ${s?.oldest_pending_age_ms} ms`,
          ];
          return undefined;
        }
        diff = await indexVsVault(r.vault.dir, r.dataDir);
        return diff.length === 0 ? true : undefined;
      },
      100,
    );
  } catch {
    /* diff says what is left */
  }
  return diff;
}

/** The daemon's log lines (JSON) with `event` equal to one of `names`. */
export function logEvents(logFile: string, ...names: string[]): Array<Record<string, unknown>> {
  if (!existsSync(logFile)) return [];
  const out: Array<Record<string, unknown>> = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      if (names.includes(String(o.event))) out.push(o);
    } catch {
      /* a partial line */
    }
  }
  return out;
}

/** Actor exits and restarts the daemon logged (none are expected from file or clock faults). */
export function restarts(logFile: string): number {
  return logEvents(logFile, 'actor_exited', 'actor_escalated').length;
}

export async function searchOk(d: ProcessDaemon, query: string): Promise<{ status: number; body: any }> {
  return d.api('POST', '/v1/search', { query, mode: 'bm25', k: 5 });
}
