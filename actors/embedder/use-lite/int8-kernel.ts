// Which int8 weight encoding this CPU computes exactly: a probe of onnxruntime's u8×s8 kernel, and the CPU features
// that explain its answer (for `memvault doctor`).
//
// DynamicQuantizeMatMul multiplies uint8 activations (asymmetric, so a zero is ~128 and a large value 255) by the
// weights. On x86, onnxruntime (MLAS) runs u8×s8 on CPUs without VNNI with vpmaddubsw, which adds each pair of u8·s8
// products into a saturating int16: 2·255·127 = 64,770 > 32,767, so large activations against large weights clip,
// and use-lite int8 lost up to 3.4 % cosine to fp32 on an AVX2-only EPYC. With VNNI (vpdpbusd) or AMX the products
// go straight into int32 and nothing clips. The u8×u8 kernels widen both sides to int16 and use vpmaddwd
// (2·255·255 = 130,050 per pair, int32 accumulators: K·65,025 < 2³¹ for K ≤ 33,025; use-lite's K ≤ 1,536), or
// vpdpbuud with AVX-VNNI-INT8: exact everywhere, but about half as fast as VNNI u8×s8. So the builder stores the
// same integer weights signed where the probe finds u8×s8 exact, and unsigned (value + 128, zero point 128) elsewhere.
import '../onnxruntime-telemetry.js';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { GraphWriter, onnx, type WeightFormat } from './onnx-graph.js';

/** What the probe saw: u8×s8 products that would overflow int16 pair sums, computed by onnxruntime on this CPU. */
export interface U8S8Probe {
  exact: boolean;
  expected: number;
  /** The output for a one-row (gemv) and an eight-row (gemm) input; each is `expected` when nothing saturates. */
  got: [number, number];
}

const K = 64; // an even count of 255·127 products: every pair overflows int16 if the kernel sums pairs there
const N = 16;

function probeModel(): Uint8Array {
  const g = new GraphWriter('int8s8');
  // All weights 1.0 quantize to 127 (scale 1/127); all-ones activations quantize to 255 (scale 1/255, zero point 0).
  const y = g.dense('a', 'probe', new Float32Array(K * N).fill(1), K, N, new Float32Array(N));
  g.nodes.push({ name: 'out', opType: 'Identity', input: [y], output: ['y'] });
  return g.encode({
    name: 'u8s8_probe',
    producerVersion: 'probe',
    docString: 'memvault: does the u8×s8 DynamicQuantizeMatMul kernel saturate on this CPU?',
    inputs: [{ name: 'a', type: onnx.TensorProto.DataType.FLOAT, shape: ['m', K] }],
    outputs: [{ name: 'y', type: onnx.TensorProto.DataType.FLOAT, shape: ['m', N] }],
  });
}

async function runProbe(): Promise<U8S8Probe> {
  const session = await ort.InferenceSession.create(probeModel(), { intraOpNumThreads: 1, interOpNumThreads: 1 });
  try {
    const at = async (m: number): Promise<number> => {
      const out = await session.run({ a: new ort.Tensor('float32', new Float32Array(m * K).fill(1), [m, K]) });
      const data = out['y']!.data as Float32Array;
      return Math.min(...data); // the worst cell
    };
    const got: [number, number] = [await at(1), await at(8)];
    const expected = K; // Σ 1·1 over K
    return { exact: got.every((v) => Math.abs(v - expected) < 0.01 * expected), expected, got };
  } finally {
    await session.release();
  }
}

let probe: Promise<U8S8Probe> | undefined;

/** The probe's result, run once per thread (a few milliseconds: one tiny session). */
export function probeU8S8(): Promise<U8S8Probe> {
  probe ??= runProbe();
  return probe;
}

/** The int8 weight encoding this CPU computes exactly and fastest. */
export async function int8Format(): Promise<Exclude<WeightFormat, 'fp32'>> {
  return (await probeU8S8()).exact ? 'int8s8' : 'int8u8';
}

/** The CPU as Linux describes it: its model name and feature flags (null where /proc/cpuinfo is not readable). */
export interface CpuInfo {
  model: string;
  flags: Set<string>;
}

export function readCpuInfo(text?: string): CpuInfo | null {
  let src = text;
  if (src === undefined) {
    try {
      src = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      return null;
    }
  }
  const field = (name: string): string | undefined => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(src!)?.[1]?.trim();
  const flags = field('flags');
  if (flags === undefined) return null;
  return { model: field('model name') ?? 'unknown', flags: new Set(flags.split(/\s+/)) };
}

export interface KernelPath {
  name: string;
  exact: boolean;
}

/**
 * The u8×s8 and u8×u8 kernels onnxruntime's MLAS picks for these flags (mirrors its platform.cpp on x86-64:
 * AVX2 → AVX-VNNI → AVX-512 core → AVX-512 VNNI, AMX last; AVX-VNNI-INT8 for u8×u8).
 */
export function kernelPaths(flags: Set<string>): { u8s8: KernelPath; u8u8: KernelPath } {
  const has = (...f: string[]): boolean => f.every((x) => flags.has(x));
  if (!has('avx2', 'fma')) {
    return {
      u8s8: { name: 'sse4.1 (pmaddubsw: 16-bit pair sums saturate)', exact: false },
      u8u8: { name: 'sse (pmaddwd on widened bytes)', exact: true },
    };
  }
  let u8s8: KernelPath = { name: 'avx2 (vpmaddubsw: 16-bit pair sums saturate)', exact: false };
  let u8u8: KernelPath = { name: 'avx2 (vpmaddwd on widened bytes)', exact: true };
  if (has('avx_vnni')) u8s8 = { name: 'avx-vnni (vpdpbusd into int32)', exact: true };
  if (has('avx512f', 'avx512bw', 'avx512dq', 'avx512vl')) {
    u8s8 = { name: 'avx512-core (vpmaddubsw: 16-bit pair sums saturate)', exact: false };
    u8u8 = { name: 'avx512-core (vpmaddwd on widened bytes)', exact: true };
    if (has('avx512_vnni')) u8s8 = { name: 'avx512-vnni (vpdpbusd into int32)', exact: true };
  }
  if (has('avx_vnni_int8')) u8u8 = { name: 'avx-vnni-int8 (vpdpbuud into int32)', exact: true };
  if (has('amx_tile', 'amx_int8')) u8s8 = { name: 'amx (tile dot products into int32)', exact: true };
  return { u8s8, u8u8 };
}

/** The flags that decide the int8 path, as "avx2 yes, avx512 yes (…), vnni no". */
export function describeCpuFeatures(flags: Set<string>): string {
  const yn = (b: boolean): string => (b ? 'yes' : 'no');
  const avx512 = ['avx512f', 'avx512bw', 'avx512dq', 'avx512vl'].filter((f) => flags.has(f));
  const vnni = ['avx512_vnni', 'avx_vnni', 'avx_vnni_int8'].filter((f) => flags.has(f));
  const amx = flags.has('amx_int8');
  return [
    `avx2 ${yn(flags.has('avx2'))}`,
    `avx512 ${avx512.length ? `yes (${avx512.map((f) => f.slice(6)).join(' ')})` : 'no'}`,
    `vnni ${vnni.length ? `yes (${vnni.join(', ')})` : 'no'}`,
    ...(amx ? ['amx-int8 yes'] : []),
  ].join(', ');
}
