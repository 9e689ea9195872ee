// 4-bit codes of a vector (stored beside its sign bits, schema v5): the gateway orders the candidates its sign bits
// pick by them (coarse-index.ts), close enough to the cosine that only the first few need the float vector.

/** Dimensions a block: a block's codes are 16 bytes, one SIMD load. */
const BLOCK = 32;
/** The largest code's magnitude: codes are -7..7, stored as 1..15 (0 is unused). */
const LEVELS = 7;

/** Bytes of codes for vectors of `dim` floats, without the scale: blocks of 32 dimensions, 16 bytes each. */
export function nibbleCodeBytes(dim: number): number {
  return Math.ceil(dim / BLOCK) * (BLOCK / 2);
}

/** Bytes a vector's codes take stored: its codes, then its scale (f32 little-endian). */
export function nibbleRowBytes(dim: number): number {
  return nibbleCodeBytes(dim) + 4;
}

/**
 * The codes of `v`'s unit vector: each dimension rounded to a multiple of `scale` = max |x| / 7, as code + 8 in a
 * nibble. Byte i of block b holds dimension 32b + i in its low nibble and 32b + 16 + i in its high one, so one 16-byte
 * load gives 16 consecutive dimensions from each half. Padding dimensions hold 8 (zero). So x ≈ scale × (code − 8).
 */
export function nibbleCodes(v: Float32Array): Buffer {
  const bytes = nibbleCodeBytes(v.length);
  const out = Buffer.alloc(bytes + 4, 0x88);
  let norm = 0;
  let max = 0;
  for (const x of v) {
    norm += x * x;
    max = Math.max(max, Math.abs(x));
  }
  norm = Math.sqrt(norm);
  const scale = norm > 0 ? max / norm / LEVELS : 0;
  if (scale > 0) {
    for (let d = 0; d < v.length; d++) {
      const code = Math.max(-LEVELS, Math.min(LEVELS, Math.round(v[d]! / norm / scale))) + 8;
      const inBlock = d % BLOCK;
      const at = (d - inBlock) / 2 + (inBlock % (BLOCK / 2));
      out[at] = inBlock < BLOCK / 2 ? (out[at]! & 0xf0) | code : (out[at]! & 0x0f) | (code << 4);
    }
  }
  out.writeFloatLE(scale, bytes);
  return out;
}

/** The stored codes blob of a float32 vector blob (the SQL function mv_nibbles: the writer and the v5 migration). */
export function nibbleCodesOfBlob(blob: Buffer): Buffer {
  if (blob.length % 4 !== 0) throw new Error(`a float32 vector blob has a multiple of 4 bytes, got ${blob.length}`);
  // a copy: a Buffer's offset into its pool need not be 4-byte aligned
  return nibbleCodes(new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.length)));
}
