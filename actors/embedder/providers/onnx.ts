// Embedding provider for any sentence-transformers ONNX export in a folder (hand-laid or a hub download): its own
// tokenizer, pooling and prompts (export-config.ts), L2-normalised vectors.
import '../onnxruntime-telemetry.js';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ModelInfo } from '../../../messages/common.js';
import type { EmbeddingProvider, EmbedKind, TokenCounter } from '../../../messages/embedding.js';
import { providerError, type OnnxProviderOptions } from '../../../messages/providers.js';
import { sha256Hex } from '../../../messages/hash.js';
import { MAX_DEFAULT_WINDOW, readExportConfig, resolvePrefixes, type Pooling, type Prefixes } from './export-config.js';
import { loadTokenizer, type TextTokenizer } from './tokenizer-files.js';

/** Texts per session.run: bounds the [batch, seq, dim] output tensor while keeping the runtime busy. */
const RUN_BATCH = 32;
/** Output names in order of preference: a pooled output is used as is, token outputs are pooled here. */
const OUTPUTS = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'];
/** The window when neither config nor the export states one (all-MiniLM-L6-v2's, memvault's first onnx model). */
const DEFAULT_WINDOW = 256;

/**
 * Starts an ONNX embedding provider. Throws an Error with `code` 'model_missing' | 'model_invalid' |
 * 'tokenizer_invalid' when the folder cannot serve; the message names the file and what to do.
 */
export async function createOnnxProvider(opts: OnnxProviderOptions): Promise<EmbeddingProvider> {
  if (opts.maxTokens !== undefined && (!Number.isInteger(opts.maxTokens) || opts.maxTokens < 1))
    throw new RangeError('maxTokens must be a positive integer');
  const dir = resolve(opts.modelDir);

  // HF repositories keep the export in onnx/model.onnx; a hand-made folder has it at the top.
  const candidates = opts.modelFile ? [join(dir, opts.modelFile)] : [join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')];
  const modelPath = candidates.find((p) => existsSync(p));
  if (!modelPath) {
    throw providerError(
      'model_missing',
      `no ${opts.modelFile ?? 'model.onnx'} in ${dir}${opts.modelFile ? '' : ` (or ${join(dir, 'onnx')})`}: download a sentence-transformers ONNX export, e.g. all-MiniLM-L6-v2, into that folder`,
    );
  }
  const tok = loadTokenizer(dir);
  if (!tok.ok) throw providerError(tok.reason, tok.message);
  const tokenizer = tok.tokenizer;
  const exp = readExportConfig(dir);
  if (!exp.ok) throw providerError('model_invalid', exp.message);
  const name = opts.name ?? basename(dir);
  const shape = modelShape(tokenizer, exp.config, name, opts);

  let bytes: Buffer;
  let session: ort.InferenceSession;
  try {
    bytes = readFileSync(modelPath);
    session = await ort.InferenceSession.create(bytes, {
      graphOptimizationLevel: 'all',
      ...(opts.intraOpThreads !== undefined && { intraOpNumThreads: opts.intraOpThreads }),
    });
  } catch (err) {
    throw providerError(
      'model_invalid',
      `${modelPath} could not be loaded (${(err as Error).message}): replace it with a valid ONNX export`,
    );
  }
  const version = modelVersion(opts.modelSha256 ?? sha256Hex(bytes), shape);

  const inputs = session.inputNames;
  if (!inputs.includes('input_ids') || !inputs.includes('attention_mask')) {
    await session.release();
    throw providerError(
      'model_invalid',
      `${modelPath} has inputs [${inputs.join(', ')}]; a BERT-style export needs input_ids and attention_mask`,
    );
  }
  const outputName = OUTPUTS.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0] ?? '';
  const runner = new Runner(session, outputName, inputs.includes('token_type_ids'), intType(session), shape.pooling);

  // Probe with a full window: learns dim and fails now, not on the first long chunk, if the window
  // exceeds the model's position table.
  let dim: number;
  try {
    const probe = await runner.run([frame(tokenizer, new Array<number>(shape.window).fill(tokenizer.fillerId))]);
    dim = probe[0]?.length ?? 0;
    if (dim === 0) throw new Error('empty output');
  } catch (err) {
    await session.release();
    const framed = shape.window + tokenizer.prefix.length + tokenizer.suffix.length;
    throw providerError(
      'model_invalid',
      `${modelPath} failed a probe run with a ${framed}-token window (${(err as Error).message}): lower maxTokens or check the export`,
    );
  }

  return new OnnxProvider({ provider: 'onnx', name, version, dim }, tokenizer, runner, shape);
}

/** How this provider feeds the model: the window, what is pooled, and the prompts before queries and passages. */
export interface ModelShape {
  /** Tokens the model attends to, prompt included, special tokens not. */
  window: number;
  pooling: Pooling;
  prefixes: Prefixes;
  /** Tokens of a passage's own text that fit after its prompt: what the chunker sizes chunks to. */
  textBudget: number;
}

/** The window, pooling and prompts for `tokenizer` under these options (shared with the chunker's token counter). */
export function modelShape(
  tokenizer: TextTokenizer,
  exp: { pooling: Pooling; maxSeqLength: number | null; prompts: Partial<Prefixes> | null; normalizes: boolean | null },
  name: string,
  opts: Pick<OnnxProviderOptions, 'maxTokens' | 'queryPrefix' | 'passagePrefix'>,
): ModelShape {
  const framing = tokenizer.prefix.length + tokenizer.suffix.length;
  const window =
    opts.maxTokens ?? (exp.maxSeqLength ? Math.max(1, Math.min(MAX_DEFAULT_WINDOW, exp.maxSeqLength - framing)) : DEFAULT_WINDOW);
  const prefixes = resolvePrefixes(name, exp, { query: opts.queryPrefix, passage: opts.passagePrefix });
  const promptTokens = prefixes.passage ? tokenizer.encode(prefixes.passage).length : 0;
  return { window, pooling: exp.pooling, prefixes, textBudget: Math.max(1, window - promptTokens) };
}

/**
 * The model file's hash, plus what else changes its vectors: a pooling other than mean and any prompts. A folder
 * laid out by hand before prompts existed keeps the identity it had (mean pooling, no prompts: the hash alone).
 */
function modelVersion(sha256: string, shape: ModelShape): string {
  const parts = [sha256.slice(0, 12)];
  if (shape.pooling !== 'mean') parts.push(shape.pooling);
  const { query, passage } = shape.prefixes;
  if (query || passage) parts.push(`p${sha256Hex(`${query}\n${passage}`).slice(0, 8)}`);
  return parts.join('-');
}

function frame(t: TextTokenizer, ids: number[]): number[] {
  return [...t.prefix, ...ids, ...t.suffix];
}

type IntType = 'int64' | 'int32';

/** Most exports take int64 ids; a few (quantised or hand-converted) take int32. */
function intType(session: ort.InferenceSession): IntType {
  const meta = session.inputMetadata.find((m) => m.name === 'input_ids');
  return meta?.isTensor && meta.type === 'int32' ? 'int32' : 'int64';
}

/** Runs padded id batches through the session and pools each row to one unit vector. */
class Runner {
  constructor(
    readonly session: ort.InferenceSession,
    readonly outputName: string,
    readonly withTokenTypes: boolean,
    readonly ints: IntType,
    readonly pooling: Pooling,
  ) {}

  async run(batch: number[][]): Promise<Float32Array[]> {
    const n = batch.length;
    const seq = Math.max(...batch.map((ids) => ids.length));
    const ids = new Array<number>(n * seq).fill(0);
    const mask = new Array<number>(n * seq).fill(0);
    batch.forEach((row, i) =>
      row.forEach((id, j) => {
        ids[i * seq + j] = id;
        mask[i * seq + j] = 1;
      }),
    );
    const feeds: Record<string, ort.Tensor> = {
      input_ids: this.#tensor(ids, [n, seq]),
      attention_mask: this.#tensor(mask, [n, seq]),
    };
    if (this.withTokenTypes) feeds['token_type_ids'] = this.#tensor(new Array<number>(n * seq).fill(0), [n, seq]);

    const out = (await this.session.run(feeds, [this.outputName]))[this.outputName];
    if (out?.type !== 'float32') throw new Error(`output ${this.outputName} is ${out?.type ?? 'missing'}, expected float32`);
    const data = out.data as Float32Array;
    if (out.dims.length === 2) return rows(data, n, Number(out.dims[1])).map(normalise);
    if (out.dims.length === 3) return pool(this.pooling, data, mask, n, seq, Number(out.dims[2])).map(normalise);
    throw new Error(`output ${this.outputName} has shape [${out.dims.join(', ')}], expected [batch, dim] or [batch, seq, dim]`);
  }

  #tensor(values: number[], dims: number[]): ort.Tensor {
    return this.ints === 'int64'
      ? new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims)
      : new ort.Tensor('int32', Int32Array.from(values), dims);
  }
}

function rows(data: Float32Array, n: number, dim: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => data.slice(i * dim, (i + 1) * dim));
}

/** One vector per row from its token states, over the positions the mask marks real: padding must not count. */
function pool(how: Pooling, data: Float32Array, mask: number[], n: number, seq: number, dim: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => {
    const v = new Float32Array(dim);
    const real: number[] = [];
    for (let s = 0; s < seq; s++) if (mask[i * seq + s] === 1) real.push(s);
    const at = (s: number) => (i * seq + s) * dim;
    switch (how) {
      case 'cls':
      case 'lasttoken': {
        const s = how === 'cls' ? real[0] : real.at(-1);
        if (s !== undefined) v.set(data.subarray(at(s), at(s) + dim));
        return v;
      }
      case 'max': {
        v.fill(real.length ? -Infinity : 0);
        for (const s of real) for (let d = 0; d < dim; d++) v[d] = Math.max(v[d]!, data[at(s) + d]!);
        return v;
      }
      case 'mean': {
        // as sentence-transformers pools
        for (const s of real) for (let d = 0; d < dim; d++) v[d]! += data[at(s) + d]!;
        for (let d = 0; d < dim; d++) v[d]! /= Math.max(real.length, 1e-9);
        return v;
      }
    }
  });
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.max(Math.sqrt(sum), 1e-12); // torch F.normalize's eps: a zero vector stays zero
  for (let d = 0; d < v.length; d++) v[d]! /= norm;
  return v;
}

class OnnxProvider implements EmbeddingProvider {
  readonly info: ModelInfo;
  readonly tokens: TokenCounter;
  #tokenizer: TextTokenizer;
  #runner: Runner;
  #shape: ModelShape;
  #closed = false;

  constructor(info: ModelInfo, tokenizer: TextTokenizer, runner: Runner, shape: ModelShape) {
    this.info = info;
    this.#tokenizer = tokenizer;
    this.#runner = runner;
    this.#shape = shape;
    // count() is the untruncated count without special tokens or prompt; a chunk with count(text) <= maxTokens is
    // seen whole by the model behind its passage prompt.
    this.tokens = { maxTokens: shape.textBudget, count: (text: string) => tokenizer.encode(text).length };
  }

  /** `kind` picks the prompt: queries and passages of e5, nomic and bge models are embedded with different ones. */
  async embed(texts: string[], kind: EmbedKind = 'passage'): Promise<Float32Array[]> {
    if (this.#closed) throw new Error('onnx provider is closed');
    const t = this.#tokenizer;
    const prompt = this.#shape.prefixes[kind];
    const framed = texts.map((text) => frame(t, t.encode(prompt + text).slice(0, this.#shape.window)));
    // Similar lengths share a batch so little compute goes to padding; results go back by original index.
    const order = framed.map((_, i) => i).sort((a, b) => framed[a]!.length - framed[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let k = 0; k < order.length; k += RUN_BATCH) {
      const idx = order.slice(k, k + RUN_BATCH);
      const vecs = await this.#runner.run(idx.map((i) => framed[i]!));
      idx.forEach((i, j) => (out[i] = vecs[j]!));
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#runner.session.release();
  }
}
