// The coarse pass's kernels in a few lines of WebAssembly: Hamming distances of packed sign bits to the query's
// (i64.popcnt is one CPU instruction, where JavaScript needs a dozen shifts and masks per 32 bits: 100k × 512 bits
// in 0.3 ms against ~20 ms), the query's float dot product with the ±1 vectors those bits stand for, and its dot
// product with the candidates' 4-bit codes (SIMD).
import { nibbleCodeBytes } from '../store-writer/nibble-codes.js';

// The opcodes used below (WebAssembly core spec, binary format).
const I32 = 0x7f;
const I64 = 0x7e;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_AND = 0x71;
const I32_SHR_U = 0x76;
const I32_MUL = 0x6c;
const I32_GE_U = 0x4f;
const I32_LE_U = 0x4d;
const IF = [0x04, 0x40];
const I64_XOR = 0x85;
const I64_POPCNT = 0x7b;
const I64_ADD = 0x7c;
const I32_WRAP_I64 = 0xa7;
const F32_ADD = 0x92;
const F32_MUL = 0x94;
const F32_CONVERT_I32_S = 0xb2;
const I32_SUB = 0x6b;
const V128 = 0x7b;
// SIMD (the 0xfd prefix, then the opcode as unsigned LEB128)
const simd = (op: number) => [0xfd, ...uleb(op)];
const v128Load = (offset: number) => [...simd(0x00), 0x04, ...uleb(offset)];
const v128Const = (byte: number) => [...simd(0x0c), ...Array<number>(16).fill(byte)];
const V128_AND = simd(0x4e);
const I8X16_SHR_U = simd(0x6d);
const I16X8_EXTEND_LOW_I8X16_U = simd(0x89);
const I16X8_EXTEND_HIGH_I8X16_U = simd(0x8a);
const I32X4_ADD = simd(0xae);
const I32X4_DOT_I16X8_S = simd(0xba);
const i32x4ExtractLane = (lane: number) => [...simd(0x1b), lane];
const i32Load8 = (offset: number) => [0x2d, 0x00, ...uleb(offset)];
const f32Load = (offset: number) => [0x2a, 0x02, ...uleb(offset)];
const f32Store = [0x38, 0x02, 0x00];
const i64Load = (offset: number) => [0x29, 0x03, ...uleb(offset)];
const i32Load = [0x28, 0x02, 0x00];
const i32LoadAt = (offset: number) => [0x28, 0x02, ...uleb(offset)];
const i32Load16U = [0x2f, 0x01, 0x00];
const i32Store = [0x36, 0x02, 0x00];
const i32Store16 = [0x3b, 0x01, 0x00];

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Non-negative i32 constants: signed LEB128, so a last byte with bit 6 set needs one more byte. */
function i32Const(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>>= 7;
    if (n === 0 && (b & 0x40) === 0) return [I32_CONST, ...out, b];
    out.push(b | 0x80);
  }
}

const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const name = (s: string) => vec([...Buffer.from(s, 'utf8')].map((b) => [b]));
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/**
 * The distance of the vector at the address in local `addr` to the query held in locals q..q+words-1, stored at
 * `out` and counted in the histogram (`hist`, one u32 per distance; `d` and `tmp` are scratch).
 */
function distanceStoreCount(words: number, addr: number, q: number, out: number, hist: number, d: number, tmp: number): number[] {
  const code: number[] = [];
  for (let j = 0; j < words; j++) {
    code.push(GET, addr, ...i64Load(j * 8), GET, q + j, I64_XOR, I64_POPCNT);
    if (j > 0) code.push(I64_ADD);
  }
  code.push(I32_WRAP_I64, SET, d);
  code.push(GET, out, GET, d, ...i32Store16);
  code.push(GET, hist, GET, d, ...i32Const(2), I32_SHL, I32_ADD, TEE, tmp, GET, tmp, ...i32Load, ...i32Const(1), I32_ADD, ...i32Store);
  return code;
}

/** Loads the query's i64 words from the address in local `from` into locals q..q+words-1. */
function loadQuery(words: number, from: number, q: number): number[] {
  return Array.from({ length: words }, (_, j) => [GET, from, ...i64Load(j * 8), SET, q + j]).flat();
}

/** scan(q, base, n, out, hist): the n vectors from `base` on, one after another. */
function scanBody(words: number): number[] {
  const [q, base, n, out, hist] = [0, 1, 2, 3, 4];
  const [q0, d, end, tmp] = [5, 5 + words, 6 + words, 7 + words];
  const code = [
    ...loadQuery(words, q, q0),
    ...[GET, base, GET, n, ...i32Const(words * 8), I32_MUL, I32_ADD, SET, end],
    ...BLOCK,
    ...LOOP,
    ...[GET, base, GET, end, I32_GE_U, BR_IF, 1],
    ...distanceStoreCount(words, base, q0, out, hist, d, tmp),
    ...[GET, base, ...i32Const(words * 8), I32_ADD, SET, base],
    ...[GET, out, ...i32Const(2), I32_ADD, SET, out],
    ...[BR, 0, END, END, END],
  ];
  const locals = vec([
    [words, I64],
    [3, I32],
  ]);
  return [...locals, ...code];
}

/** scanSlots(q, base, slots, m, out, hist): only the vectors whose slot numbers (u32) the array at `slots` lists. */
function scanSlotsBody(words: number): number[] {
  const [q, base, slots, m, out, hist] = [0, 1, 2, 3, 4, 5];
  const [q0, d, end, tmp, addr] = [6, 6 + words, 7 + words, 8 + words, 9 + words];
  const code = [
    ...loadQuery(words, q, q0),
    ...[GET, slots, GET, m, ...i32Const(2), I32_SHL, I32_ADD, SET, end],
    ...BLOCK,
    ...LOOP,
    ...[GET, slots, GET, end, I32_GE_U, BR_IF, 1],
    ...[GET, base, GET, slots, ...i32Load, ...i32Const(words * 8), I32_MUL, I32_ADD, SET, addr],
    ...distanceStoreCount(words, addr, q0, out, hist, d, tmp),
    ...[GET, slots, ...i32Const(4), I32_ADD, SET, slots],
    ...[GET, out, ...i32Const(2), I32_ADD, SET, out],
    ...[BR, 0, END, END, END],
  ];
  const locals = vec([
    [words, I64],
    [4, I32],
  ]);
  return [...locals, ...code];
}

/**
 * asymmetric(table, base, slots, m, out): for each listed slot, Σ table[r][nibble r of its vector] over the
 * vector's dim/4 nibbles, as f32 at `out`. With table[r][v] = the sum of the query's floats whose bits are set in v,
 * that is the query summed over the vector's set bits: q·(2·bits − 1) = 2·that − Σq, so it ranks like the dot
 * product of the float query with the ±1 vector, far closer to the cosine than a Hamming distance between both
 * signs. Nibbles rather than bytes: a 16-entry row per 4 dimensions is 8 KB at 512 (L1-resident, built in ~2k adds).
 */
function asymmetricBody(bytes: number, stride: number): number[] {
  const [table, base, slots, m, out] = [0, 1, 2, 3, 4];
  const [end, addr] = [5, 6];
  // the table entry of nibble r: low nibbles are even rows, high ones odd
  const entry = (r: number): number[] => {
    const j = r >> 1;
    const nibble = r % 2 === 0 ? [...i32Const(15), I32_AND] : [...i32Const(4), I32_SHR_U];
    return [GET, addr, ...i32Load8(j), ...nibble, ...i32Const(2), I32_SHL, GET, table, I32_ADD, ...f32Load(r * 64)];
  };
  // summed as a balanced tree: a chain of dependent adds would wait on each one (~4× slower)
  const sum = (lo: number, hi: number): number[] =>
    hi - lo === 1 ? entry(lo) : [...sum(lo, (lo + hi) >> 1), ...sum((lo + hi) >> 1, hi), F32_ADD];
  const terms = sum(0, bytes * 2);
  const code = [
    ...[GET, slots, GET, m, ...i32Const(2), I32_SHL, I32_ADD, SET, end],
    ...BLOCK,
    ...LOOP,
    ...[GET, slots, GET, end, I32_GE_U, BR_IF, 1],
    ...[GET, base, GET, slots, ...i32Load, ...i32Const(stride), I32_MUL, I32_ADD, SET, addr],
    ...[GET, out, ...terms, ...f32Store],
    ...[GET, slots, ...i32Const(4), I32_ADD, SET, slots],
    ...[GET, out, ...i32Const(4), I32_ADD, SET, out],
    ...[BR, 0, END, END, END],
  ];
  return [...vec([[2, I32]]), ...code];
}

/**
 * nibble(query, codes, scales, slots, m, out, bias): for each listed slot, the dot product of the query (i16 at
 * `query`, dimensions in order, padded to whole blocks) with the slot's 4-bit codes (nibble-codes.ts: 16 bytes a block
 * of 32 dimensions, each code + 8), less `bias` (8 × the query's sum), times the slot's scale (f32 at `scales`), as f32
 * at `out`. A block is one load; its low and high nibbles widen to i16 and meet the query in i32x4.dot_i16x8_s.
 */
function nibbleBody(blocks: number): number[] {
  const [query, codes, scales, slots, m, out, bias] = [0, 1, 2, 3, 4, 5, 6];
  const [end, slot, addr, at, sink, acc, v, half] = [7, 8, 9, 10, 11, 12, 13, 14];
  const dotInto = (from: number, widen: number[], offset: number): number[] => [
    ...[GET, from, ...widen, GET, query, ...v128Load(offset), ...I32X4_DOT_I16X8_S],
    ...[GET, acc, ...I32X4_ADD, SET, acc],
  ];
  const block = (b: number): number[] => [
    ...[GET, addr, ...v128Load(b * 16), SET, v],
    ...[GET, v, ...v128Const(0x0f), ...V128_AND, SET, half],
    ...dotInto(half, I16X8_EXTEND_LOW_I8X16_U, b * 64),
    ...dotInto(half, I16X8_EXTEND_HIGH_I8X16_U, b * 64 + 16),
    ...[GET, v, ...i32Const(4), ...I8X16_SHR_U, SET, half],
    ...dotInto(half, I16X8_EXTEND_LOW_I8X16_U, b * 64 + 32),
    ...dotInto(half, I16X8_EXTEND_HIGH_I8X16_U, b * 64 + 48),
  ];
  const lanes = [0, 1, 2, 3].flatMap((l) => [GET, acc, ...i32x4ExtractLane(l), ...(l > 0 ? [I32_ADD] : [])]);
  const addrOf = [GET, codes, GET, slot, ...i32Const(blocks * 16), I32_MUL, I32_ADD, SET, addr];
  // First one load from each cache line of every candidate, none waiting on another: the lines arrive side by side
  // (random 64-byte lines at 100k chunks miss the caches), where the dot products below would wait on each in turn.
  const touch = Array.from({ length: Math.ceil(blocks / 4) }, (_, i) => [GET, addr, ...i32LoadAt(i * 64), I32_ADD]).flat();
  const code = [
    ...[GET, slots, GET, m, ...i32Const(2), I32_SHL, I32_ADD, SET, end],
    ...[GET, slots, SET, at],
    ...BLOCK,
    ...LOOP,
    ...[GET, at, GET, end, I32_GE_U, BR_IF, 1],
    ...[GET, at, ...i32Load, SET, slot],
    ...addrOf,
    ...[GET, sink, ...touch, SET, sink],
    ...[GET, at, ...i32Const(4), I32_ADD, SET, at],
    ...[BR, 0, END, END],
    ...[GET, out, GET, sink, ...i32Store], // kept, so the loads are too; the first score overwrites it
    ...BLOCK,
    ...LOOP,
    ...[GET, slots, GET, end, I32_GE_U, BR_IF, 1],
    ...[GET, slots, ...i32Load, SET, slot],
    ...addrOf,
    ...[...v128Const(0), SET, acc],
    ...Array.from({ length: blocks }, (_, b) => block(b)).flat(),
    ...[GET, out, ...lanes, GET, bias, I32_SUB, F32_CONVERT_I32_S],
    ...[GET, scales, GET, slot, ...i32Const(2), I32_SHL, I32_ADD, ...f32Load(0), F32_MUL, ...f32Store],
    ...[GET, slots, ...i32Const(4), I32_ADD, SET, slots],
    ...[GET, out, ...i32Const(4), I32_ADD, SET, out],
    ...[BR, 0, END, END, END],
  ];
  return [
    ...vec([
      [5, I32],
      [3, V128],
    ]),
    ...code,
  ];
}

/**
 * collect(out, m, last, list) → count: the positions (u32, ascending) of the u16 distances at `out` that are at most
 * `last`, written at `list`. The counting sort then places only those, in JavaScript: a loop over all `m` distances
 * there cost ~0.7 ms at 100k chunks in a search.
 */
function collectBody(): number[] {
  const [out, m, last, list] = [0, 1, 2, 3];
  const [end, i, n] = [4, 5, 6];
  const code = [
    ...[GET, out, GET, m, ...i32Const(1), I32_SHL, I32_ADD, SET, end],
    ...BLOCK,
    ...LOOP,
    ...[GET, out, GET, end, I32_GE_U, BR_IF, 1],
    ...[GET, out, ...i32Load16U, GET, last, I32_LE_U, ...IF],
    ...[GET, list, GET, n, ...i32Const(2), I32_SHL, I32_ADD, GET, i, ...i32Store],
    ...[GET, n, ...i32Const(1), I32_ADD, SET, n],
    ...[END],
    ...[GET, out, ...i32Const(2), I32_ADD, SET, out],
    ...[GET, i, ...i32Const(1), I32_ADD, SET, i],
    ...[BR, 0, END, END],
    ...[GET, n, END],
  ];
  return [...vec([[3, I32]]), ...code];
}

/** The module for vectors of `dim` bits padded to whole 64-bit words, unrolled: one load, xor and popcnt per word. */
function moduleBytes(dim: number): Uint8Array {
  const words = Math.ceil(dim / 64);
  const scanType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])];
  const slotsType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])];
  const collectType = [0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])];
  const nibbleType = [0x60, ...vec(Array.from({ length: 7 }, () => [I32])), ...vec([])];
  const body = (b: number[]) => [...uleb(b.length), ...b];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([scanType, slotsType, collectType, nibbleType])),
    ...section(2, vec([[...name('m'), ...name('mem'), 0x02, 0x00, 0x01]])), // memory imported, at least one page
    ...section(3, vec([[0], [1], [0], [3], [2]])),
    ...section(
      7,
      vec([
        [...name('scan'), 0x00, 0],
        [...name('scanSlots'), 0x00, 1],
        [...name('asymmetric'), 0x00, 2],
        [...name('nibble'), 0x00, 3],
        [...name('collect'), 0x00, 4],
      ]),
    ),
    ...section(
      10,
      vec([
        body(scanBody(words)),
        body(scanSlotsBody(words)),
        body(asymmetricBody(dim / 8, words * 8)),
        body(nibbleBody(nibbleCodeBytes(dim) / 16)),
        body(collectBody()),
      ]),
    ),
  ]);
}

/**
 * Kernels for packed vectors of `dim` bits (stored padded to whole 64-bit words); addresses are byte offsets into
 * the memory the kernels were made for.
 */
export interface HammingKernel {
  /** Distances of `n` vectors from `base` on to the query at `q`, into u16s at `out`, counted in `hist` (a u32 per distance 0..dim, zeroed first). */
  scan(q: number, base: number, n: number, out: number, hist: number): void;
  /** The same for the `m` slots listed (u32 each) at `slots`. */
  scanSlots(q: number, base: number, slots: number, m: number, out: number, hist: number): void;
  /** Asymmetric scores (f32, higher is nearer) of the `m` listed slots, from `table`: dim/4 rows of 16 f32 (see asymmetricBody). */
  asymmetric(table: number, base: number, slots: number, m: number, out: number): void;
  /** 4-bit scores (f32, ≈ the dot product with the unit vector, times the query's scale) of the `m` listed slots (see nibbleBody). */
  nibble(query: number, codes: number, scales: number, slots: number, m: number, out: number, bias: number): void;
  /** The positions (u32, ascending) of the `m` u16 distances at `out` that are at most `last`, written at `list`; how many. */
  collect(out: number, m: number, last: number, list: number): number;
}

/** Compiled modules by dimension (one per model a thread meets). */
const compiled = new Map<number, WebAssembly.Module>();

/** The kernels for vectors of `dim` bits working on `memory` (compiled once per dimension and thread). */
export function hammingKernel(dim: number, memory: WebAssembly.Memory): HammingKernel {
  // u16 distances; the unrolled bodies grow with the dimension (4096 bits: a few thousand instructions)
  if (!Number.isInteger(dim) || dim < 8 || dim > 4096 || dim % 8 !== 0) {
    throw new RangeError(`dim must be a multiple of 8 from 8 to 4096, got ${dim}`);
  }
  let mod = compiled.get(dim);
  if (!mod) {
    mod = new WebAssembly.Module(moduleBytes(dim));
    compiled.set(dim, mod);
  }
  const inst = new WebAssembly.Instance(mod, { m: { mem: memory } });
  return inst.exports as unknown as HammingKernel;
}
