// `memvault doctor`: checks what the daemon needs (config, vault, data dir, sqlite-vec, the model) and says what to fix.
import { accessSync, constants, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { configFor, EXIT, type Args } from '../args.js';
import { createProvider, providerSettings } from '../../actors/embedder/factory.js';
import { readManifest } from '../../actors/embedder/providers/hub-cache.js';
import type { HubSpec } from '../../actors/embedder/providers/hub-paths.js';
import { headFile, resolveUrl } from '../../actors/embedder/providers/hub-http.js';
import { describeCpuFeatures, kernelPaths, probeU8S8, readCpuInfo } from '../../actors/embedder/use-lite/int8-kernel.js';
import { llmCheck, templatesCheck } from './doctor-llm.js';
import { isDamagedIndex, IndexOpenError, openIndex } from '../../actors/store-writer/schema.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { indexFile } from '../../supervisors/runtime/boot.js';
import type { Config } from '../../config/load.js';
import { damagedPagesLine, indexDamagedLine } from '../index-damaged.js';
import { gitIndexLock } from '../../actors/git-writer/index-lock.js';
import { AgentsFileError, caseTwins, readAgents } from '../../actors/gateway/agents/store.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** Worth fixing, but nothing fails for it (the exit stays 0): printed `WARN`. */
  warn?: true;
}

export async function doctorCommand(a: Args): Promise<number> {
  const checks: Check[] = [];
  const cfg = configFor(a, { vaultRequired: false });
  checks.push({ name: 'config', ok: true, detail: cfg.config_file ? `${cfg.config_file} is valid` : 'defaults (no --config file)' });
  const vaultOk = existsSync(cfg.vault) && statSync(cfg.vault).isDirectory();
  checks.push({ name: 'vault', ok: vaultOk, detail: vaultOk ? cfg.vault : `${cfg.vault} is not a folder` });
  checks.push(dataDirCheck(cfg.data_dir, vaultOk ? null : cfg.vault));
  if (vaultOk) checks.push(indexCheck(cfg), agentsCheck(cfg.data_dir));
  try {
    const db = new Database(':memory:');
    sqliteVec.load(db);
    const v = db.prepare('select sqlite_version() s, vec_version() v').get() as { s: string; v: string };
    db.close();
    checks.push({ name: 'sqlite-vec', ok: true, detail: `SQLite ${v.s}, sqlite-vec ${v.v}` });
  } catch (err) {
    checks.push({ name: 'sqlite-vec', ok: false, detail: `cannot load: ${(err as Error).message} (reinstall with npm ci)` });
  }
  try {
    const out = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
    const m = /(\d+)\.(\d+)/.exec(out);
    const ok = !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 30));
    checks.push({ name: 'git', ok, detail: ok ? out : `${out}: git 2.30 or newer is needed for vault history` });
  } catch {
    checks.push({ name: 'git', ok: false, detail: 'git not found: install git 2.30+ (apt-get install git) for vault history' });
  }
  if (vaultOk) {
    const lock = gitIndexLock(cfg.vault);
    checks.push({ name: 'git lock', ok: lock === null, detail: lock ? `${lock.reason}: ${lock.message}` : 'no stale .git/index.lock' });
  }
  checks.push(...(await cpuChecks()));
  const settings = providerSettings(cfg);
  const hub = settings.kind === 'onnx' ? settings.hub : undefined;
  if (hub && settings.kind === 'onnx' && !readManifest(settings.modelDir)) {
    // not downloaded yet: say whether the daemon will be able to fetch it, without downloading it here
    checks.push(await hubReachable(hub));
  } else if (settings.kind === 'use-lite' && !vaultOk) {
    // a missing vault is reported, never made: the model is built from its package into a scratch folder, not into
    // `<vault>/.memvault/models` (which made the vault, so that the next doctor said "ok vault")
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'memvault-doctor-'));
    try {
      checks.push(await modelCheck({ ...settings, cacheDir: scratch }));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    checks.push(await modelCheck(settings));
  }
  checks.push(templatesCheck(cfg), ...(await llmCheck(cfg)));
  return report(a, checks);
}

/** What SQLite's quick_check finds wrong with the pages (none: an empty list); a page it cannot read at all throws. */
function pageProblems(db: ReturnType<typeof openIndex>): string[] {
  try {
    const rows = (db.pragma('quick_check(3)') as Array<{ quick_check: string }>).map((r) => r.quick_check);
    return rows.join() === 'ok' ? [] : rows;
  } catch (err) {
    if (isDamagedIndex(err)) return [(err as Error).message];
    throw err;
  }
}

/**
 * The index file opens, says which model built it, and its pages read (SQLite's quick_check: every page, a few seconds
 * for a large index read cold); one SQLite cannot read is reported as the daemon will treat it.
 */
function indexCheck(cfg: Config): Check {
  const file = indexFile(cfg);
  if (!existsSync(file))
    return { name: 'index', ok: true, detail: `${file} not made yet (the first start or \`memvault index\` makes it)` };
  try {
    const db = openIndex(file, { readonly: true });
    try {
      const model = new IndexReader(db).model();
      // a damaged page inside a file that opens: only a read of it shows it (an open and the model row did not)
      const problems = pageProblems(db);
      if (problems.length) return { name: 'index', ok: false, detail: damagedPagesLine(file, problems) };
      return { name: 'index', ok: true, detail: `${file}, built with ${model ? `${model.name}@${model.version}` : 'no model yet'}` };
    } finally {
      db.close();
    }
  } catch (err) {
    if (isDamagedIndex(err)) return { name: 'index', ok: false, detail: indexDamagedLine(file, err) };
    if (err instanceof IndexOpenError) return { name: 'index', ok: err.code !== 'index_too_new', detail: `${err.code}: ${err.message}` };
    return { name: 'index', ok: false, detail: `${file} cannot be opened: ${(err as Error).message}` };
  }
}

/** agents.json reads, and no two agents' names differ only in letter case (pairs added before that was refused). */
function agentsCheck(dataDir: string): Check {
  try {
    const agents = readAgents(dataDir).agents;
    const twins = caseTwins(agents);
    if (twins.length) return { name: 'agents', ok: true, warn: true, detail: twins.map((w) => `${w.reason}: ${w.message}`).join('; ') };
    return {
      name: 'agents',
      ok: true,
      detail: `${agents.length} agent${agents.length === 1 ? '' : 's'}, no two names differing only in letter case`,
    };
  } catch (err) {
    const reason = err instanceof AgentsFileError ? err.reason : 'agents_file_unreadable';
    return { name: 'agents', ok: false, detail: `${reason}: ${(err as Error).message}` };
  }
}

/** Loads the configured model and embeds one sentence with it. */
async function modelCheck(settings: ReturnType<typeof providerSettings>): Promise<Check> {
  const started = performance.now();
  try {
    const p = await createProvider(settings, 1);
    const [v] = await p.embed(['memvault doctor']);
    await p.close();
    return {
      name: 'model',
      ok: v?.length === p.info.dim,
      detail: `${p.info.provider} ${p.info.name}@${p.info.version}, ${p.info.dim}-dim, ready in ${Math.round(performance.now() - started)} ms`,
    };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { name: 'model', ok: false, detail: `${e.code ?? 'provider_failed'}: ${e.message} — search falls back to keywords` };
  }
}

function report(a: Args, checks: Check[]): number {
  if (a.json) process.stdout.write(JSON.stringify({ ok: checks.every((c) => c.ok), checks }, null, 2) + '\n');
  else for (const c of checks) process.stdout.write(`${c.ok ? (c.warn ? 'WARN' : 'ok  ') : 'FAIL'}  ${c.name.padEnd(10)} ${c.detail}\n`);
  return checks.every((c) => c.ok) ? EXIT.ok : EXIT.failure;
}

/** A hub model not cached yet: the hub answering for its config.json is what the daemon's first start needs. */
async function hubReachable(hub: HubSpec): Promise<Check> {
  const url = resolveUrl(hub.hubUrl, hub.repo, hub.revision, 'config.json');
  try {
    await headFile(url);
    return {
      name: 'model',
      ok: true,
      detail: `${hub.repo}@${hub.revision} is not downloaded yet; ${hub.hubUrl} answers, so the daemon fetches it at first use (or run \`memvault models pull ${hub.repo}\`)`,
    };
  } catch (err) {
    return {
      name: 'model',
      ok: false,
      detail: `model_unavailable: ${hub.repo} is not downloaded and ${hub.hubUrl} cannot be reached (${(err as Error).message}): run \`memvault models pull ${hub.repo}\` where it can, or set embedder.onnx.hub_url to a mirror — search falls back to keywords`,
    };
  }
}

/** The CPU features that decide onnxruntime's int8 kernels, and which one use-lite `quantize: int8` runs here. */
async function cpuChecks(): Promise<Check[]> {
  const cpu = readCpuInfo();
  const out: Check[] = [
    { name: 'cpu', ok: true, detail: cpu ? `${cpu.model}: ${describeCpuFeatures(cpu.flags)}` : 'unknown (no /proc/cpuinfo)' },
  ];
  try {
    const probe = await probeU8S8();
    const paths = cpu ? kernelPaths(cpu.flags) : null;
    const u8s8 = paths ? `u8×s8 kernel ${paths.u8s8.name}` : 'u8×s8 kernel unknown';
    const used = probe.exact
      ? `weights stored signed: u8×s8 is exact here (probe ${probe.got[1]} = ${probe.expected})`
      : `weights stored unsigned for the u8×u8 kernel${paths ? ` ${paths.u8u8.name}` : ''}: u8×s8 saturates here (probe ${probe.got[1].toFixed(1)} ≠ ${probe.expected})`;
    const agrees =
      !paths || paths.u8s8.exact === probe.exact ? '' : ' [the probe disagrees with the CPU flags: an emulated or masked CPU?]';
    out.push({ name: 'int8', ok: true, detail: `${u8s8}; quantize: int8 ${used}${agrees}` });
  } catch (err) {
    out.push({ name: 'int8', ok: false, detail: `the int8 kernel probe failed: ${(err as Error).message} (reinstall with npm ci)` });
  }
  return out;
}

/** The data dir writable, or the nearest folder it would be made in; none is made while the vault it lives in is missing. */
function dataDirCheck(dataDir: string, missingVault: string | null): Check {
  let at = dataDir;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const rel = missingVault === null ? '..' : path.relative(missingVault, dataDir);
  if (at !== dataDir && !rel.startsWith('..') && !path.isAbsolute(rel))
    return { name: 'data dir', ok: false, detail: `${dataDir} cannot be made: it is inside the missing vault` };
  try {
    accessSync(at, constants.W_OK);
    return { name: 'data dir', ok: true, detail: at === dataDir ? dataDir : `${dataDir} (made at the first start)` };
  } catch {
    return { name: 'data dir', ok: false, detail: `${at === dataDir ? dataDir : at} is not writable` };
  }
}
