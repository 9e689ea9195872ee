// Loads settings: the YAML file, then environment overrides, then CLI flags. The only place that reads settings.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { ZodIssue } from 'zod';
import { configSchema, type FileConfig } from './schema.js';

/** Resolved settings every actor receives (plain data: it crosses into worker threads). */
export interface Config extends FileConfig {
  vault: string; // absolute
  data_dir: string; // absolute
  config_file: string | null;
}

export interface ConfigProblem {
  path: string; // e.g. "embedder.batch_size"
  rule: string; // what was broken
}

export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(
    readonly file: string | null,
    readonly problems: ConfigProblem[],
  ) {
    super(`${file ?? 'configuration'} is invalid:\n` + problems.map((p) => `  - ${p.path || '(root)'}: ${p.rule}`).join('\n'));
  }
}

export interface LoadOptions {
  file?: string | null;
  vault?: string; // --vault
  listen?: string; // --listen
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

function issueToProblem(i: ZodIssue): ConfigProblem {
  return { path: i.path.join('.'), rule: i.message };
}

/** Parse and validate settings; throws ConfigError naming every problem with its path and rule. */
export function loadConfig(opts: LoadOptions = {}): Config {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const file = opts.file ? path.resolve(cwd, opts.file) : null;
  let raw: unknown = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(file, [{ path: '', rule: `cannot read file: ${(err as Error).message}` }]);
    }
    const doc = parseDocument(text, { prettyErrors: true });
    if (doc.errors.length > 0)
      throw new ConfigError(
        file,
        doc.errors.map((e) => ({ path: `line ${e.linePos?.[0]?.line ?? '?'}`, rule: `YAML syntax: ${e.message.split('\n')[0]}` })),
      );
    raw = doc.toJS() ?? {};
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw new ConfigError(file, [{ path: '', rule: 'the top level must be a mapping of settings' }]);
  }
  const merged = { ...(raw as Record<string, unknown>) };
  if (env.MEMVAULT_LISTEN) merged.listen = env.MEMVAULT_LISTEN;
  if (env.MEMVAULT_DATA_DIR) merged.data_dir = env.MEMVAULT_DATA_DIR;
  if (opts.listen) merged.listen = opts.listen;
  if (opts.vault) merged.vault = opts.vault;
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigError(file, parsed.error.issues.map(issueToProblem));
  const c = parsed.data;
  const base = file ? path.dirname(file) : cwd;
  if (!c.vault) throw new ConfigError(file, [{ path: 'vault', rule: 'required: pass --vault DIR or set vault in the config file' }]);
  const vault = path.resolve(opts.vault ? cwd : base, c.vault);
  const dataDir = c.data_dir ? path.resolve(env.MEMVAULT_DATA_DIR ? cwd : base, c.data_dir) : path.join(vault, '.memvault');
  return { ...c, vault, data_dir: dataDir, config_file: file };
}

export { splitListen } from './listen.js';
