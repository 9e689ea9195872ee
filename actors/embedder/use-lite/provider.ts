// The default embedding provider: Universal Sentence Encoder lite (512-d), rebuilt as ONNX and run on onnxruntime-node.
import '../onnxruntime-telemetry.js';
import { unlink } from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import type { ModelInfo } from '../../../messages/common.js';
import type { EmbeddingProvider } from '../../../messages/embedding.js';
import { providerError } from '../../../messages/providers.js';
import { ensureUseLiteModelFile, useLiteModelVersion, type UseLiteQuantize, type WeightFormat } from './build-onnx.js';
import { int8Format } from './int8-kernel.js';
import { loadUseLiteTokenizer, type UseLiteTokenizer } from './tokenizer.js';

export const USE_LITE_DIM = 512;

/**
 * Texts per session.run. onnxruntime's arena keeps the largest run's activations for good: at 32 texts of 128 tokens
 * it grew to ~170 MB a session, at 4 to ~23 MB, and the model is small enough that bigger runs gain nothing (texts
 * per CPU second: 66 at 32, 73 at 8, 78 at 4, 75 at 1, on this machine's EPYC).
 */
const RUN_BATCH = 4;

export interface UseLiteProviderOptions {
  /** Folder for the built .onnx file (created if missing; the build happens once per package version and variant). */
  cacheDir: string;
  /** onnxruntime intra-op threads; default 1 (the embedder scales with pool threads instead). */
  intraOpThreads?: number;
  /**
   * 'int8' quantizes the weight matmuls: cosine ≈ 0.999 to fp32 on any x86-64; 2.5× faster than fp32 with VNNI,
   * less without (the weights are stored for the CPU's exact kernel). Its vectors are a different model.
   */
  quantize?: UseLiteQuantize;
  /**
   * For benches: the int8 weight encoding to load instead of the one this CPU computes exactly (int8-kernel.ts).
   * int8s8 on a CPU whose u8×s8 kernel saturates gives wrong vectors.
   */
  int8Weights?: Exclude<WeightFormat, 'fp32'>;
}

/**
 * Starts the use-lite provider: builds (or reuses) the cached ONNX model and opens one onnxruntime session.
 * Throws an Error with `code` 'model_missing' | 'model_invalid' when the model package is absent or damaged.
 *
 * An empty text embeds as the unit vector l2normalize(tanh(b)) of the final dense layer's bias — what TF.js
 * gives for an empty row inside a batch (stock TF.js throws for a batch of only empty texts and drops trailing
 * empty rows).
 */
export async function createUseLiteProvider(opts: UseLiteProviderOptions): Promise<EmbeddingProvider> {
  const intraOpThreads = opts.intraOpThreads ?? 1;
  if (!Number.isInteger(intraOpThreads) || intraOpThreads < 1) throw new RangeError('intraOpThreads must be a positive integer');
  const quantize = opts.quantize ?? 'fp32';
  if (quantize !== 'fp32' && quantize !== 'int8') throw new RangeError("quantize must be 'fp32' or 'int8'");

  const tokens = loadUseLiteTokenizer();
  const format: WeightFormat = quantize === 'fp32' ? 'fp32' : (opts.int8Weights ?? (await int8Format()));
  const session = await openSession(opts.cacheDir, format, intraOpThreads);
  const info: ModelInfo = {
    provider: 'use-lite',
    name: 'universal-sentence-encoder-lite',
    version: useLiteModelVersion(quantize), // one identity for both int8 encodings: they compute the same sums
    dim: USE_LITE_DIM,
  };
  return new UseLiteProvider(info, tokens, session);
}

/**
 * Each session is resident memory of the daemon (three of them while indexing). Without memory patterns no buffer
 * is planned per input shape (texts vary in length): 73–75 instead of 82 MB per session after 600 texts, at the same
 * CPU time. Prepacking is kept: without it a session is ~3 MB smaller but costs 8 % more CPU per text (README, Memory).
 */
const sessionOptions = (threads: number): ort.InferenceSession.SessionOptions => ({
  graphOptimizationLevel: 'all',
  executionMode: 'sequential',
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  enableMemPattern: false,
});

async function openSession(cacheDir: string, format: WeightFormat, threads: number): Promise<ort.InferenceSession> {
  const first = await ensureUseLiteModelFile(cacheDir, { format });
  try {
    return await ort.InferenceSession.create(first.path, sessionOptions(threads));
  } catch (err) {
    if (first.built) {
      throw providerError(
        'model_invalid',
        `the freshly built ${first.path} does not load (${(err as Error).message}); this is a builder defect`,
      );
    }
    // A cached file that no longer loads (disk damage, a foreign file): rebuild it once.
    await unlink(first.path).catch(() => undefined);
    const again = await ensureUseLiteModelFile(cacheDir, { format });
    try {
      return await ort.InferenceSession.create(again.path, sessionOptions(threads));
    } catch (err2) {
      throw providerError('model_invalid', `${again.path} does not load even after a rebuild (${(err2 as Error).message})`);
    }
  }
}

class UseLiteProvider implements EmbeddingProvider {
  #session: ort.InferenceSession | null;

  constructor(
    readonly info: ModelInfo,
    readonly tokens: UseLiteTokenizer,
    session: ort.InferenceSession,
  ) {
    this.#session = session;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.tokens.encodeForModel(t));
    // Similar lengths share a run, so little compute goes to padding; results return in the callers' order.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    for (let at = 0; at < order.length; at += RUN_BATCH) {
      const rows = order.slice(at, at + RUN_BATCH);
      const vectors = await this.#run(rows.map((i) => encoded[i]!));
      rows.forEach((row, k) => (out[row] = vectors[k]!));
    }
    return out;
  }

  async #run(batch: number[][]): Promise<Float32Array[]> {
    const session = this.#session;
    if (!session) throw new Error('use-lite provider used after close()');
    const seq = Math.max(1, ...batch.map((ids) => ids.length)); // an all-empty batch still needs one (masked) column
    const ids = new BigInt64Array(batch.length * seq);
    const mask = new BigInt64Array(batch.length * seq);
    batch.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) {
        ids[r * seq + c] = BigInt(row[c]!);
        mask[r * seq + c] = 1n;
      }
    });
    const dims = [batch.length, seq];
    const result = await session.run({
      input_ids: new ort.Tensor('int64', ids, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
    });
    const output = result.embeddings;
    if (!output || !(output.data instanceof Float32Array)) throw new Error('use-lite session returned no float embeddings');
    const data = output.data;
    const dim = this.info.dim;
    // slice, not subarray: the rows must outlive onnxruntime's output buffer.
    const vectors = batch.map((_, r) => data.slice(r * dim, (r + 1) * dim));
    output.dispose();
    return vectors;
  }

  async close(): Promise<void> {
    const session = this.#session;
    this.#session = null;
    await session?.release();
  }
}
