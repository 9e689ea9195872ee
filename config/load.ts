// Loads settings: the YAML file, then environment overrides, then CLI flags. The only place that reads settings.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument, type YAMLError } from 'yaml';
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
  /** The environment variable or flag the broken value came from (MEMVAULT_LISTEN, --listen), when not the file. */
  from?: string;
}

export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(
    readonly file: string | null,
    readonly problems: ConfigProblem[],
  ) {
    super(`${blamed(file, problems)} is invalid:\n` + problems.map((p) => `  - ${p.path || '(root)'}: ${p.rule}`).join('\n'));
  }
}

/** What the first line blames: the file, unless every broken value came from the environment or a flag. */
function blamed(file: string | null, problems: ConfigProblem[]): string {
  const from = [...new Set(problems.map((p) => p.from))];
  if (problems.length > 0 && !from.includes(undefined)) return from.join(' and ');
  return file ?? 'configuration';
}

export interface LoadOptions {
  file?: string | null;
  vault?: string; // --vault
  listen?: string; // --listen
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** A setting an override replaced is blamed on the override, with the value it gave: the file may be fine. */
function issueToProblem(i: ZodIssue, overrides: Map<string, { from: string; value: string }>): ConfigProblem {
  const over = overrides.get(String(i.path[0]));
  if (!over) return { path: i.path.join('.'), rule: i.message };
  return { path: i.path.join('.'), rule: `${i.message} (${over.from} is ${JSON.stringify(over.value)})`, from: over.from };
}

/**
 * A YAML syntax error as one line: the parser's message ends with its position and a snippet after a colon ("… at
 * line 4, column 14:"), which the path says already; the snippet was cut there, leaving the colon dangling.
 */
function yamlProblem(e: YAMLError): ConfigProblem {
  const at = e.linePos?.[0];
  const message = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return { path: at ? `line ${at.line}, column ${at.col}` : 'line ?', rule: `YAML syntax: ${message}` };
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
    if (doc.errors.length > 0) throw new ConfigError(file, doc.errors.map(yamlProblem));
    raw = doc.toJS() ?? {};
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw new ConfigError(file, [{ path: '', rule: 'the top level must be a mapping of settings' }]);
  }
  const merged = { ...(raw as Record<string, unknown>) };
  const overrides = new Map<string, { from: string; value: string }>();
  const override = (key: string, from: string, value: string | undefined) => {
    if (!value) return;
    merged[key] = value;
    overrides.set(key, { from, value });
  };
  override('listen', 'MEMVAULT_LISTEN', env.MEMVAULT_LISTEN);
  override('data_dir', 'MEMVAULT_DATA_DIR', env.MEMVAULT_DATA_DIR);
  override('listen', '--listen', opts.listen);
  override('vault', '--vault', opts.vault);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success)
    throw new ConfigError(
      file,
      parsed.error.issues.map((i) => issueToProblem(i, overrides)),
    );
  const c = parsed.data;
  const base = file ? path.dirname(file) : cwd;
  if (!c.vault) throw new ConfigError(file, [{ path: 'vault', rule: 'required: pass --vault DIR or set vault in the config file' }]);
  const vault = path.resolve(opts.vault ? cwd : base, c.vault);
  const dataDir = c.data_dir ? path.resolve(env.MEMVAULT_DATA_DIR ? cwd : base, c.data_dir) : path.join(vault, '.memvault');
  return { ...c, vault, data_dir: dataDir, config_file: file };
}

export { splitListen } from './listen.js';
