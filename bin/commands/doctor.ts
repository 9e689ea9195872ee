// `memvault doctor`: checks what the daemon needs (config, vault, data dir, sqlite-vec, the model) and says what to fix.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { configFor, EXIT, type Args } from '../cli.js';
import { createProvider, providerSettings } from '../../actors/embedder/factory.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function doctorCommand(a: Args): Promise<number> {
  const checks: Check[] = [];
  const cfg = configFor(a, { vaultRequired: false });
  checks.push({ name: 'config', ok: true, detail: cfg.config_file ? `${cfg.config_file} is valid` : 'defaults (no --config file)' });
  const vaultOk = existsSync(cfg.vault) && statSync(cfg.vault).isDirectory();
  checks.push({ name: 'vault', ok: vaultOk, detail: vaultOk ? cfg.vault : `${cfg.vault} is not a folder` });
  try {
    if (existsSync(cfg.data_dir)) accessSync(cfg.data_dir, constants.W_OK);
    checks.push({ name: 'data dir', ok: true, detail: cfg.data_dir });
  } catch {
    checks.push({ name: 'data dir', ok: false, detail: `${cfg.data_dir} is not writable` });
  }
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
  const started = performance.now();
  try {
    const p = await createProvider(providerSettings(cfg), 1);
    const [v] = await p.embed(['memvault doctor']);
    checks.push({ name: 'model', ok: v?.length === p.info.dim, detail: `${p.info.provider} ${p.info.name}@${p.info.version}, ${p.info.dim}-dim, ready in ${Math.round(performance.now() - started)} ms` });
    await p.close();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    checks.push({ name: 'model', ok: false, detail: `${e.code ?? 'provider_failed'}: ${e.message} — search falls back to keywords` });
  }
  if (a.json) process.stdout.write(JSON.stringify({ ok: checks.every((c) => c.ok), checks }, null, 2) + '\n');
  else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(10)} ${c.detail}\n`);
  return checks.every((c) => c.ok) ? EXIT.ok : EXIT.failure;
}
