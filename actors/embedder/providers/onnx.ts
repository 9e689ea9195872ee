// Embedding provider for any sentence-transformers ONNX export the operator puts on disk (all-MiniLM-L6-v2 layout).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ModelInfo } from '../../../messages/common.js';
import type { EmbeddingProvider, TokenCounter } from '../../../messages/embedding.js';
import { providerError, type OnnxProviderOptions } from '../../../messages/providers.js';
import { loadTokenizer } from './tokenizer-files.js';
import type { BertTokenizer } from './wordpiece.js';
import { sha256Hex } from '../../../messages/hash.js';

/** Texts per session.run: bounds the [batch, seq, dim] output tensor while keeping the runtime busy. */
const RUN_BATCH = 32;
/** Output names in order of preference: a pooled output is used as is, token outputs are mean-pooled. */
const OUTPUTS = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'];

/**
 * Starts an ONNX embedding provider. Throws an Error with `code` 'model_missing' | 'model_invalid' |
 * 'tokenizer_invalid' when the folder cannot serve; the message names the file and what to do.
 */
export async function createOnnxProvider(opts: OnnxProviderOptions): Promise<EmbeddingProvider> {
  const maxTokens = opts.maxTokens ?? 256;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError('maxTokens must be a positive integer');
  const dir = resolve(opts.modelDir);

  // HF repositories keep the export in onnx/model.onnx; a hand-made folder has it at the top.
  const modelPath = [join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')].find((p) => existsSync(p));
  if (!modelPath) {
    throw providerError(
      'model_missing',
      `no model.onnx in ${dir} (or ${join(dir, 'onnx')}): download a sentence-transformers ONNX export, e.g. all-MiniLM-L6-v2, into that folder`,
    );
  }
  const tok = loadTokenizer(dir);
  if (!tok.ok) throw providerError(tok.reason, tok.message);
  const tokenizer = tok.tokenizer;

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
  const version = sha256Hex(bytes).slice(0, 12);

  const inputs = session.inputNames;
  if (!inputs.includes('input_ids') || !inputs.includes('attention_mask')) {
    await session.release();
    throw providerError(
      'model_invalid',
      `${modelPath} has inputs [${inputs.join(', ')}]; a BERT-style export needs input_ids and attention_mask`,
    );
  }
  const outputName = OUTPUTS.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0] ?? '';
  const runner = new Runner(session, outputName, inputs.includes('token_type_ids'), intType(session));

  // Probe with a full window: learns dim and fails now, not on the first long chunk, if maxTokens
  // exceeds the model's position table.
  let dim: number;
  try {
    const probe = await runner.run([[tokenizer.clsId, ...new Array<number>(maxTokens).fill(tokenizer.unkId), tokenizer.sepId]]);
    dim = probe[0]?.length ?? 0;
    if (dim === 0) throw new Error('empty output');
  } catch (err) {
    await session.release();
    throw providerError(
      'model_invalid',
      `${modelPath} failed a probe run with a ${maxTokens + 2}-token window (${(err as Error).message}): lower maxTokens or check the export`,
    );
  }

  return new OnnxProvider({ provider: 'onnx', name: opts.name ?? basename(dir), version, dim }, tokenizer, runner, maxTokens);
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
    if (out.dims.length === 3) return meanPool(data, mask, n, seq, Number(out.dims[2])).map(normalise);
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

/** Mean over the positions the mask marks real, as sentence-transformers pools: padding must not count. */
function meanPool(data: Float32Array, mask: number[], n: number, seq: number, dim: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => {
    const v = new Float32Array(dim);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      if (mask[i * seq + s] !== 1) continue;
      count++;
      const base = (i * seq + s) * dim;
      for (let d = 0; d < dim; d++) v[d]! += data[base + d]!;
    }
    for (let d = 0; d < dim; d++) v[d]! /= Math.max(count, 1e-9);
    return v;
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
  #tokenizer: BertTokenizer;
  #runner: Runner;
  #maxTokens: number;
  #closed = false;

  constructor(info: ModelInfo, tokenizer: BertTokenizer, runner: Runner, maxTokens: number) {
    this.info = info;
    this.#tokenizer = tokenizer;
    this.#runner = runner;
    this.#maxTokens = maxTokens;
    // count() is the untruncated WordPiece count without [CLS]/[SEP]; maxTokens is the same unit, so a
    // chunk with count(text) <= maxTokens is seen whole by the model.
    this.tokens = { maxTokens, count: (text: string) => tokenizer.encode(text).length };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.#closed) throw new Error('onnx provider is closed');
    const t = this.#tokenizer;
    const framed = texts.map((text) => [t.clsId, ...t.encode(text).slice(0, this.#maxTokens), t.sepId]);
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
