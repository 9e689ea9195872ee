// What a sentence-transformers export says about itself beside its weights: pooling (1_Pooling/config.json), the
// window (sentence_bert_config.json, tokenizer_config.json) and query/passage prompts (config_sentence_transformers.json,
// else the model family's documented prefixes), so one line of config runs it as its authors do.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, type Result } from '../../../messages/common.js';

/** How token states become one vector. Exports with a pooled output (`sentence_embedding`) need none. */
export type Pooling = 'mean' | 'cls' | 'max' | 'lasttoken';

export interface Prefixes {
  query: string;
  passage: string;
}

export interface ExportConfig {
  pooling: Pooling;
  /** The window sentence-transformers uses (special tokens included), when the export states one. */
  maxSeqLength: number | null;
  /** Prompts the export itself declares; null when it declares none. */
  prompts: Partial<Prefixes> | null;
  /** modules.json lists a Normalize module (memvault always L2-normalises: its index compares by cosine). */
  normalizes: boolean | null;
}

/** Longest default window: longer chunks cost quadratically in attention and blur what a search hit points at. */
export const MAX_DEFAULT_WINDOW = 512;

/**
 * Documented prefixes of the popular families, for exports that do not declare prompts (e.g. the Xenova/ mirrors).
 * Matched on the repository or folder name; an explicit `query_prefix` / `passage_prefix` in config wins.
 */
const FAMILIES: Array<{ match: RegExp; prefixes: Prefixes }> = [
  { match: /(^|[/_-])e5([_-]|$)/i, prefixes: { query: 'query: ', passage: 'passage: ' } },
  { match: /nomic-embed-text/i, prefixes: { query: 'search_query: ', passage: 'search_document: ' } },
  {
    match: /bge-(small|base|large)-en/i,
    prefixes: { query: 'Represent this sentence for searching relevant passages: ', passage: '' },
  },
];

function readJson(file: string): Result<{ value: Record<string, unknown> | null }> {
  if (!existsSync(file)) return { ok: true, value: null };
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return fail('model_invalid', `${file} is not a JSON object: re-download it`);
    return { ok: true, value: v as Record<string, unknown> };
  } catch (err) {
    return fail('model_invalid', `${file} is not valid JSON (${(err as Error).message}): re-download it`);
  }
}

const POOLING_FLAGS: Array<[string, Pooling]> = [
  ['pooling_mode_mean_tokens', 'mean'],
  // mean·sqrt(n) points where the mean points: after L2 normalisation the two give the same vector
  ['pooling_mode_mean_sqrt_len_tokens', 'mean'],
  ['pooling_mode_cls_token', 'cls'],
  ['pooling_mode_max_tokens', 'max'],
  ['pooling_mode_lasttoken', 'lasttoken'],
];

/** Reads the export's own settings from `dir`; every file is optional (a hand-made folder has none: mean pooling). */
export function readExportConfig(dir: string): Result<{ config: ExportConfig }> {
  const pool = readJson(join(dir, '1_Pooling', 'config.json'));
  if (!pool.ok) return pool;
  let pooling: Pooling = 'mean';
  if (pool.value) {
    const modes = [...new Set(POOLING_FLAGS.filter(([k]) => pool.value?.[k] === true).map(([, m]) => m))];
    const mode = typeof pool.value['pooling_mode'] === 'string' ? (pool.value['pooling_mode'] as string) : null;
    if (modes.length > 1)
      return fail(
        'model_invalid',
        `${join(dir, '1_Pooling', 'config.json')} combines pooling modes (${modes.join(', ')}); memvault pools one way`,
      );
    if (modes[0]) pooling = modes[0];
    else if (mode === 'cls' || mode === 'max' || mode === 'lasttoken' || mode === 'mean') pooling = mode;
  }
  const st = readJson(join(dir, 'sentence_bert_config.json'));
  if (!st.ok) return st;
  const tc = readJson(join(dir, 'tokenizer_config.json'));
  if (!tc.ok) return tc;
  const seq = positiveInt(st.value?.['max_seq_length']) ?? positiveInt(tc.value?.['model_max_length']);
  const cst = readJson(join(dir, 'config_sentence_transformers.json'));
  if (!cst.ok) return cst;
  let prompts: Partial<Prefixes> | null = null;
  const p = cst.value?.['prompts'];
  if (p && typeof p === 'object') {
    const get = (...keys: string[]) =>
      keys.map((k) => (p as Record<string, unknown>)[k]).find((v) => typeof v === 'string') as string | undefined;
    const query = get('query', 'search_query');
    const passage = get('passage', 'document', 'search_document', 'corpus');
    if (query !== undefined || passage !== undefined)
      prompts = { ...(query !== undefined && { query }), ...(passage !== undefined && { passage }) };
  }
  let normalizes: boolean | null = null;
  try {
    const file = join(dir, 'modules.json');
    const list = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : null;
    if (Array.isArray(list)) normalizes = list.some((m) => typeof m?.type === 'string' && m.type.endsWith('Normalize'));
  } catch {
    normalizes = null; // informational only: memvault normalises either way
  }
  return { ok: true, config: { pooling, maxSeqLength: seq, prompts, normalizes } };
}

/** tokenizer_config.json says 1e30 for "no limit": only a plausible window counts. */
function positiveInt(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 1_000_000 ? v : null;
}

/** The query/passage prefixes to use: config, else the export's prompts, else the family's, else none. */
export function resolvePrefixes(name: string, exp: ExportConfig, configured: Partial<Prefixes>): Prefixes {
  const family = FAMILIES.find((f) => f.match.test(name))?.prefixes;
  const base = exp.prompts
    ? { query: exp.prompts.query ?? '', passage: exp.prompts.passage ?? '' }
    : (family ?? { query: '', passage: '' });
  return { query: configured.query ?? base.query, passage: configured.passage ?? base.passage };
}
