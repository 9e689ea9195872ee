// The templates the skills render: note templates (prompts/vault/*.liquid) and LLM prompts (prompts/llm/*.liquid),
// with liquidjs in strict mode (a missing variable or filter is an error, never an empty string). `templates.dir`
// may hold overrides of any of them; every template is parsed and rendered with sample variables at start, so a
// broken one is a config error naming the file and line, not a failed note at night.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Liquid, type Template } from 'liquidjs';
import { parseDocument } from 'yaml';
import type { ConfigProblem } from '../../../config/load.js';
import {
  LLM_SAMPLES,
  LLM_TEMPLATES,
  type LlmTemplate,
  type LlmVars,
  NOTE_TYPE,
  VAULT_SAMPLES,
  VAULT_TEMPLATES,
  type VaultTemplate,
  type VaultVars,
} from './vars.js';
import { PACKAGE_ROOT } from '../../../supervisors/runtime/code-files.js';

/** The bundled templates: `<repo>/prompts/` (found from wherever this runs: dist/ or a bundle). */
export const BUNDLED_DIR = `${path.join(PACKAGE_ROOT, 'prompts')}${path.sep}`;

export interface RenderedNote {
  text: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

/** A template that failed to parse or render: the file and line, and what was wrong. */
export class TemplateError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly detail: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${detail}`);
  }
}

function lineOf(err: unknown): number | null {
  const e = err as { token?: { getPosition?: () => [number, number] }; message?: string };
  const pos = e.token?.getPosition?.();
  if (pos) return pos[0];
  const m = /line:(\d+)/.exec(e.message ?? '');
  return m ? Number(m[1]) : null;
}

function firstLine(err: unknown): string {
  const e = err as { originalError?: Error; message?: string };
  return (e.originalError?.message ?? e.message ?? String(err)).split('\n')[0]!.replace(/, (file:[^,]*, )?line:\d+, col:\d+$/, '');
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export class Templates {
  readonly #engine = new Liquid({ strictVariables: true, strictFilters: true });
  readonly #parsed = new Map<string, { file: string; tpl: Template[] }>();

  /** Reads every template, an override in `overrideDir` (vault/<name>.liquid, llm/<name>.liquid) first; throws TemplateError. */
  constructor(
    readonly overrideDir: string | null = null,
    bundledDir = BUNDLED_DIR,
  ) {
    const load = (kind: 'vault' | 'llm', name: string) => {
      const over = overrideDir ? path.join(overrideDir, kind, `${name}.liquid`) : null;
      const file = over && existsSync(over) ? over : path.join(bundledDir, kind, `${name}.liquid`);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new TemplateError(file, null, `cannot read: ${(err as Error).message}`);
      }
      try {
        this.#parsed.set(`${kind}/${name}`, { file, tpl: this.#engine.parse(text, file) });
      } catch (err) {
        throw new TemplateError(file, lineOf(err), firstLine(err));
      }
    };
    for (const n of VAULT_TEMPLATES) load('vault', n);
    for (const n of LLM_TEMPLATES) load('llm', n);
  }

  /** The file a template comes from (an override or the bundled one). */
  fileOf(kind: 'vault' | 'llm', name: string): string {
    return this.#parsed.get(`${kind}/${name}`)!.file;
  }

  #render(kind: 'vault' | 'llm', name: string, vars: object): string {
    const t = this.#parsed.get(`${kind}/${name}`)!;
    try {
      return this.#engine.renderSync(t.tpl, vars as Record<string, unknown>) as string;
    } catch (err) {
      throw new TemplateError(t.file, lineOf(err), firstLine(err));
    }
  }

  renderLlm<N extends LlmTemplate>(name: N, vars: LlmVars[N]): string {
    return this.#render('llm', name, vars).trim();
  }

  /**
   * A note: the template's output, its frontmatter parsed and checked — a mapping with the note's `type`,
   * `idempotency_key` equal to the key and `autowritten_by: memvault`. Throws TemplateError saying what is wrong.
   */
  renderNote<N extends VaultTemplate>(name: N, vars: VaultVars[N]): RenderedNote {
    const text = `${this.#render('vault', name, vars).trim()}\n`;
    const file = this.fileOf('vault', name);
    const m = FRONTMATTER.exec(text);
    if (!m) throw new TemplateError(file, 1, 'the note must start with a YAML frontmatter block (--- … ---)');
    const doc = parseDocument(m[1]!);
    if (doc.errors.length) {
      const e = doc.errors[0]!;
      throw new TemplateError(
        file,
        null,
        `the rendered frontmatter is not valid YAML (line ${e.linePos?.[0]?.line ?? '?'} of it): ${e.message.split('\n')[0]}`,
      );
    }
    const fm = doc.toJS() as unknown;
    if (fm === null || typeof fm !== 'object' || Array.isArray(fm))
      throw new TemplateError(file, null, 'the frontmatter must be a mapping of keys');
    const f = fm as Record<string, unknown>;
    const wrong: string[] = [];
    if (f['type'] !== NOTE_TYPE[name]) wrong.push(`type must be "${NOTE_TYPE[name]}" (got ${JSON.stringify(f['type'])})`);
    if (f['idempotency_key'] !== vars.key)
      wrong.push(`idempotency_key must be {{ key }} (${JSON.stringify(vars.key)}), got ${JSON.stringify(f['idempotency_key'])}`);
    if (f['autowritten_by'] !== 'memvault') wrong.push('autowritten_by must be memvault');
    if (wrong.length) throw new TemplateError(file, null, `frontmatter: ${wrong.join('; ')}`);
    return { text, frontmatter: f, body: text.slice(m[0].length) };
  }

  /** Renders every template with its sample variables: the problems found, each naming the file and line. */
  check(): ConfigProblem[] {
    const problems: ConfigProblem[] = [];
    const attempt = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        problems.push({ path: `templates: ${err.file}${err.line !== null ? ` line ${err.line}` : ''}`, rule: err.detail });
      }
    };
    for (const n of VAULT_TEMPLATES) attempt(() => this.renderNote(n, VAULT_SAMPLES[n]));
    for (const n of LLM_TEMPLATES) attempt(() => this.renderLlm(n, LLM_SAMPLES[n]));
    return problems;
  }
}

/** `templates.dir` resolved against the config file's folder (or the working folder without one). */
export function overrideDir(cfg: { templates: { dir?: string }; config_file: string | null }, cwd = process.cwd()): string | null {
  const d = cfg.templates.dir;
  if (!d) return null;
  return path.resolve(cfg.config_file ? path.dirname(cfg.config_file) : cwd, d);
}

/**
 * Loads and checks the templates for these settings; a broken one (or a missing override folder) is a list of
 * config problems naming the file and line. Returns the templates when all is well.
 */
export function loadTemplates(
  cfg: Parameters<typeof overrideDir>[0],
): { templates: Templates; problems: [] } | { templates: null; problems: ConfigProblem[] } {
  const dir = overrideDir(cfg);
  if (dir && !existsSync(dir)) return { templates: null, problems: [{ path: 'templates.dir', rule: `${dir} does not exist` }] };
  const stray = dir ? strayOverrides(dir) : [];
  if (stray.length) return { templates: null, problems: stray };
  let t: Templates;
  try {
    t = new Templates(dir);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    return {
      templates: null,
      problems: [{ path: `templates: ${err.file}${err.line !== null ? ` line ${err.line}` : ''}`, rule: err.detail }],
    };
  }
  const problems = t.check();
  return problems.length ? { templates: null, problems } : { templates: t, problems: [] };
}

/**
 * The `.liquid` files in the override folder that replace nothing — a misspelt name, or a file outside vault/ and
 * llm/ — each a problem naming it and the names memvault reads, rather than an override silently never used.
 */
export function strayOverrides(dir: string): ConfigProblem[] {
  const known = new Set([...VAULT_TEMPLATES.map((n) => `vault/${n}.liquid`), ...LLM_TEMPLATES.map((n) => `llm/${n}.liquid`)]);
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch (err) {
    return [{ path: 'templates.dir', rule: `cannot read ${dir}: ${(err as Error).message}` }];
  }
  return files
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.liquid') && !known.has(f))
    .sort()
    .map((f) => ({
      path: `templates: ${path.join(dir, f)}`,
      rule:
        'replaces no template (an override keeps its bundled name under vault/ or llm/): ' +
        `vault/ takes ${VAULT_TEMPLATES.join(', ')}; llm/ takes ${LLM_TEMPLATES.join(', ')}`,
    }));
}
