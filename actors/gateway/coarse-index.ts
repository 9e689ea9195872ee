// The coarse pass's vectors in this thread's memory, kept in step with the store by its vector log, one index per
// connection: sign bits (one a dimension, 64 bytes a chunk at 512 dimensions) scanned with popcount, and 4-bit codes
// (260 bytes at 512) that order the candidates the bits pick and estimate their cosines.
import type { Database } from 'better-sqlite3';
import { nibbleCodeBytes, nibbleRowBytes } from '../store-writer/nibble-codes.js';
import { prepared } from '../store-writer/statement-cache.js';
import { vectorDim } from '../store-writer/schema.js';
import { vectorChangesSince, vectorLogState } from '../store-writer/vector-log.js';
import type { Ranked } from './group-by-note.js';
import { type HammingKernel, hammingKernel } from './hamming.js';
import { SlotIds } from './slot-ids.js';

const PAGE = 65_536;
/** Below this share of changed chunks a sync reads each one; above, reading every vector again is cheaper. */
const DELTA_SHARE = 0.25;
/** Rows a full load reads per statement. */
const LOAD_SLICE = 4096;
/** The connection's page cache during a full load (cache_size: negative is KiB). */
const LOAD_CACHE = -2048;

/** The largest magnitude of the query's i16 values in the 4-bit kernel: its sums stay within i32 up to 4,096 dimensions. */
const QUERY_RANGE = 16_383;

/**
 * Packed sign bits and 4-bit codes of every stored vector in a WebAssembly memory laid out as [query bits | histogram
 * | score table | query i16 | bits (cap slots) | codes (cap) | scales (f32 × cap) | distances or scores (u32 × cap) |
 * slot list (u32 × cap) | positions within reach (u32 × cap)]; the regions from the codes on move when the capacity
 * grows. The chunk each slot holds, and that chunk's document, are in typed arrays beside it.
 * A removed chunk's slot takes the last vector, so the vectors stay one dense run the kernel scans in one call.
 */
export class CoarseIndex {
  readonly dim: number;
  readonly #stride: number; // bytes a vector, padded to whole 64-bit words
  readonly #histSlots: number;
  readonly #histAt: number;
  readonly #tableAt: number;
  readonly #queryAt: number;
  readonly #vectorsAt: number;
  /** bytes of a vector's codes (without its scale), whole 16-byte blocks */
  readonly #codeStride: number;
  readonly #memory: WebAssembly.Memory;
  readonly #kernel: HammingKernel;
  #bytes: Uint8Array;
  #cap = 0;
  /** Each slot's chunk id and each chunk's slot, in typed arrays: no per-chunk object on the V8 heap. */
  readonly #slots = new SlotIds();
  /**
   * Each slot's document (a chunk's never changes: chunk ids are not reused), so a search checks its candidates'
   * documents against the filters without reading their chunk rows (filter-sql.ts, `passing`).
   */
  #docs = new Float64Array(0);
  /** The last vector-log row applied; -1 before the first load. */
  #seq = -1;
  /** What nearest() last answered and the slots of those ids, so refine() on that answer skips the id lookups. */
  #last: { ids: readonly number[]; slots: Uint32Array } | null = null;

  constructor(dim: number) {
    if (!Number.isInteger(dim) || dim <= 0 || dim % 8 !== 0)
      throw new RangeError(`vector dim must be a positive multiple of 8, got ${dim}`);
    this.dim = dim;
    const words = Math.ceil(dim / 64);
    this.#stride = words * 8;
    this.#histSlots = dim + 1;
    this.#histAt = this.#stride;
    this.#codeStride = nibbleCodeBytes(dim);
    this.#tableAt = Math.ceil((this.#histAt + this.#histSlots * 4) / 64) * 64;
    this.#queryAt = this.#tableAt + (dim / 4) * 16 * 4;
    this.#vectorsAt = this.#queryAt + this.#codeStride * 4; // an i16 a dimension, two dimensions a code byte
    this.#memory = new WebAssembly.Memory({ initial: Math.ceil(this.#vectorsAt / PAGE) });
    this.#kernel = hammingKernel(dim, this.#memory);
    this.#bytes = new Uint8Array(this.#memory.buffer);
  }

  /** Chunks with a vector. */
  get size(): number {
    return this.#slots.size;
  }

  /** The document of chunk `id`, or undefined when it has no vector here. */
  docOf(id: number): number | undefined {
    const s = this.#slots.slotOf(id);
    return s < 0 ? undefined : this.#docs[s];
  }

  /** Bring the index to the store's state in the caller's snapshot: call inside the read transaction that uses it. */
  sync(db: Database): void {
    const log = vectorLogState(db);
    if (this.#seq >= 0 && log.head === this.#seq) return;
    this.#last = null; // slots are about to move
    const changed = this.#seq >= 0 && log.pruned <= this.#seq ? vectorChangesSince(db, this.#seq) : null;
    if (changed === null || changed.length > DELTA_SHARE * this.#slots.size + 1000) {
      // through a small page cache: the pages read (~330 bytes a chunk, 33 MB at 100k) are in this thread's memory
      // once loaded, and would otherwise stay in the connection's cache (resident, as a search's pages are not)
      const cache = db.pragma('cache_size', { simple: true }) as number;
      db.pragma(`cache_size = ${LOAD_CACHE}`);
      try {
        this.#load(db);
      } finally {
        db.pragma(`cache_size = ${cache}`);
      }
    } else {
      const get = prepared(
        db,
        `SELECT b.embedding AS bits, b.codes, c.document_id AS doc
         FROM memory_vectors_bit b CROSS JOIN memory_chunks c ON c.id = b.chunk_id WHERE b.chunk_id = ?`,
      );
      for (const id of changed) {
        const row = get.get(id) as { bits: Buffer; codes: Buffer; doc: number } | undefined;
        if (row) this.#put(id, row.bits, row.codes, row.doc);
        else this.#remove(id);
      }
    }
    this.#seq = log.head;
  }

  /**
   * The `n` chunks nearest `query` by Hamming distance of the sign bits, nearest first (ties in slot order), among
   * all or, given `within`, among those chunk ids (ids without a vector are skipped).
   */
  nearest(query: Float32Array, n: number, within?: readonly number[]): number[] {
    if (query.length !== this.dim) throw new Error(`query vector has ${query.length} floats, the index holds vectors of ${this.dim}`);
    let m = this.#slots.size;
    const { out, slotsAt, listAt } = this.#scratch();
    if (within) {
      const slots = new Uint32Array(this.#memory.buffer, slotsAt, this.#cap);
      m = 0;
      for (const id of within) {
        const s = this.#slots.slotOf(id);
        if (s >= 0 && m < this.#cap) slots[m++] = s; // ids are distinct, so at most every slot once
      }
    }
    if (m === 0 || n <= 0) return [];
    this.#writeQuery(query);
    const hist = new Uint32Array(this.#memory.buffer, this.#histAt, this.#histSlots);
    hist.fill(0);
    if (within) this.#kernel.scanSlots(0, this.#vectorsAt, slotsAt, m, out, this.#histAt);
    else this.#kernel.scan(0, this.#vectorsAt, m, out, this.#histAt);
    // counting sort by distance, only as far as the n-th: offsets where each distance's run starts
    const take = Math.min(n, m);
    const start = new Uint32Array(this.#histSlots);
    let cum = 0;
    let last = 0;
    for (let d = 0; d < this.#histSlots && cum < take; d++) {
      start[d] = cum;
      cum += hist[d]!;
      last = d;
    }
    // placed in scan order (the slots' ids read in order too), only the positions the kernel found at most that far
    const count = this.#kernel.collect(out, m, last, listAt);
    const list = new Uint32Array(this.#memory.buffer, listAt, count);
    const dist = new Uint16Array(this.#memory.buffer, out, m);
    const slots = within ? new Uint32Array(this.#memory.buffer, slotsAt, m) : null;
    const ids: number[] = new Array(take);
    const found = new Uint32Array(take);
    for (let j = 0; j < count; j++) {
      const i = list[j]!;
      const d = dist[i]!;
      const at = start[d]!;
      if (at >= take) continue; // the last distance's run is cut at n
      start[d] = at + 1;
      const s = slots ? slots[i]! : i;
      found[at] = s;
      ids[at] = this.#slots.idAt(s);
    }
    this.#last = { ids, slots: found };
    return ids;
  }

  /**
   * Of `ids` (chunks with a vector, as nearest() gives them), the `r` best by the asymmetric score (in no order): the
   * float query's dot product with each ±1 vector. Re-ranking ~10 Hamming candidates per one kept halves the
   * candidates for the same recall (real use-lite vectors: 200 kept of 2,000 recall 0.994, against 0.99 for the
   * nearest 400). One 64-byte line a candidate, where its codes are four: the codes then order only those kept.
   */
  refine(query: Float32Array, ids: readonly number[], r: number): number[] {
    const m = ids.length;
    if (m <= r) return [...ids];
    const { out, slotsAt } = this.#listSlots(ids);
    // table[row][v]: the query summed over the bits set in v, for nibble `row` (an addition from a smaller v each)
    const table = new Float32Array(this.#memory.buffer, this.#tableAt, (this.dim / 4) * 16);
    for (let row = 0; row < this.dim / 4; row++) {
      const at = row * 16;
      table[at] = 0;
      for (let v = 1; v < 16; v++) {
        const low = v & -v;
        table[at + v] = table[at + (v ^ low)]! + query[4 * row + 31 - Math.clz32(low)]!;
      }
    }
    this.#kernel.asymmetric(this.#tableAt, this.#vectorsAt, slotsAt, m, out);
    const score = new Float32Array(this.#memory.buffer, out, m);
    return bestPositions(score, r).map((i) => ids[i]!);
  }

  /**
   * Of `ids` (chunks with a vector), the `r` nearest by their 4-bit codes, nearest first, each with its estimated
   * cosine: on 19k real use-lite vectors (512 dimensions) 0.003 from the exact one on average, 0.015 at the most.
   */
  rerank(query: Float32Array, ids: readonly number[], r: number): Ranked[] {
    const m = ids.length;
    if (m === 0 || r <= 0) return [];
    const { out, slotsAt } = this.#listSlots(ids);
    // the query as i16, QUERY_RANGE at its largest dimension; the codes are stored + 8, so 8 × its sum comes off
    let max = 0;
    let norm = 0;
    for (const x of query) {
      max = Math.max(max, Math.abs(x));
      norm += x * x;
    }
    if (max === 0) return ids.slice(0, r).map((id) => ({ id, score: 0 }));
    const qi = new Int16Array(this.#memory.buffer, this.#queryAt, this.#codeStride * 2);
    qi.fill(0);
    let sum = 0;
    for (let d = 0; d < query.length; d++) sum += qi[d] = Math.round((query[d]! / max) * QUERY_RANGE);
    this.#kernel.nibble(this.#queryAt, this.#codesAt(), this.#scalesAt(), slotsAt, m, out, 8 * sum);
    const score = new Float32Array(this.#memory.buffer, out, m);
    const unit = max / QUERY_RANGE / Math.sqrt(norm);
    return (m <= r ? [...ids.keys()] : bestPositions(score, r))
      .map((i) => ({ id: ids[i]!, score: score[i]! * unit }))
      .sort((a, b) => b.score - a.score);
  }

  /** `ids`' slots into the scratch slot list (those of nearest()'s last answer are known already). */
  #listSlots(ids: readonly number[]): { out: number; slotsAt: number } {
    const m = ids.length;
    const { out, slotsAt } = this.#scratch();
    const slots = new Uint32Array(this.#memory.buffer, slotsAt, m);
    if (this.#last?.ids === ids && this.#last.slots.length === m) slots.set(this.#last.slots);
    else {
      for (let i = 0; i < m; i++) {
        const s = this.#slots.slotOf(ids[i]!);
        if (s < 0) throw new Error(`chunk ${ids[i]} has no vector in the coarse index`);
        slots[i] = s;
      }
    }
    return { out, slotsAt };
  }

  /** Every vector again, from the store (first use, a reindex, another model, or a log this reader fell behind). */
  #load(db: Database): void {
    this.#slots.clear();
    const dim = vectorDim(db);
    if (dim === null) return;
    if (dim !== this.dim) throw new Error(`the index holds vectors of ${dim} floats, this coarse index ${this.dim}`);
    const total = prepared(db, `SELECT count(*) FROM memory_vectors_bit`).pluck().get() as number;
    this.#reserve(total);
    this.#slots.reserve(total);
    // A slice of rows as one blob of bits and one string of ids (both aggregates step over the same rows in the same
    // order): a Buffer per row costs ~4 µs in better-sqlite3, this ~0.5 µs a row. The bits come as a blob (outside
    // the V8 heap) and the ids are parsed in place: as hex text and split strings, a load left ~300 bytes of garbage
    // a chunk on the gateway's heap, held until its next full GC.
    const slice = prepared(
      db,
      `SELECT max(chunk_id) AS last, group_concat(chunk_id) AS ids, CAST(group_concat(embedding, '') AS BLOB) AS bits,
         CAST(group_concat(codes, '') AS BLOB) AS codes
       FROM (SELECT chunk_id, embedding, codes FROM memory_vectors_bit WHERE chunk_id > ? ORDER BY chunk_id LIMIT ${LOAD_SLICE})`,
    );
    const bytes = this.dim / 8;
    const row = nibbleRowBytes(this.dim);
    for (let after = -1; ; ) {
      const r = slice.get(after) as { last: number | null; ids: string | null; bits: Buffer | null; codes: Buffer | null };
      if (r.last === null || r.ids === null || r.bits === null || r.codes === null) {
        this.#loadDocs(db);
        return;
      }
      const first = this.#slots.size;
      let count = 0;
      forEachId(r.ids, (id) => {
        this.#slots.add(id); // fresh slots in order: distinct ids (the primary key)
        count++;
      });
      if (r.bits.length !== count * bytes) throw new Error(`bit vectors of ${r.bits.length / count} bytes, the index ${bytes}`);
      if (r.codes.length !== count * row) throw new Error(`4-bit codes of ${r.codes.length / count} bytes, the index ${row}`);
      this.#reserve(first + count);
      for (let i = 0; i < count; i++) this.#putCodes(first + i, r.codes.subarray(i * row, (i + 1) * row));
      const at = this.#vectorsAt + first * this.#stride;
      if (this.#stride === bytes) this.#bytes.set(r.bits, at);
      else {
        this.#bytes.fill(0, at, at + count * this.#stride);
        for (let i = 0; i < count; i++) this.#bytes.set(r.bits.subarray(i * bytes, (i + 1) * bytes), at + i * this.#stride);
      }
      after = r.last;
    }
  }

  /**
   * Every slot's document, from the chunks' (document_id, seq) index: 1.4 MB of pages at 100k chunks, where the chunk
   * rows took 19 MB (the bench store). Both columns as one string each (the load's way: no row objects).
   */
  #loadDocs(db: Database): void {
    const r = prepared(
      db,
      `SELECT group_concat(id) AS ids, group_concat(document_id) AS docs FROM memory_chunks INDEXED BY memory_chunks_document`,
    ).get() as { ids: string | null; docs: string | null };
    if (r.ids === null || r.docs === null) return;
    const docs = r.docs;
    let at = 0;
    forEachId(r.ids, (id) => {
      let doc = 0;
      for (let c = docs.charCodeAt(at); c >= 48 && c <= 57; c = docs.charCodeAt(++at)) doc = doc * 10 + (c - 48);
      at++; // the comma
      const s = this.#slots.slotOf(id);
      if (s >= 0) this.#docs[s] = doc;
    });
  }

  #put(id: number, bits: Buffer, codes: Buffer, doc: number): void {
    if (bits.length !== this.dim / 8) throw new Error(`chunk ${id} has ${bits.length * 8} bits, the index ${this.dim}`);
    if (codes.length !== nibbleRowBytes(this.dim))
      throw new Error(`chunk ${id} has ${codes.length} bytes of 4-bit codes, the index ${nibbleRowBytes(this.dim)}`);
    this.#reserve(this.#slots.size + 1);
    const s = this.#slots.add(id);
    this.#docs[s] = doc;
    const at = this.#vectorsAt + s * this.#stride;
    this.#bytes.set(bits, at);
    this.#bytes.fill(0, at + bits.length, at + this.#stride); // padding bits match nothing in the query either
    this.#putCodes(s, codes);
  }

  /** A stored codes blob (codes, then the f32 scale) into `slot`'s codes and scale. */
  #putCodes(slot: number, row: Buffer): void {
    this.#bytes.set(row.subarray(0, this.#codeStride), this.#codesAt() + slot * this.#codeStride);
    this.#bytes.set(row.subarray(this.#codeStride, this.#codeStride + 4), this.#scalesAt() + slot * 4);
  }

  #remove(id: number): void {
    const r = this.#slots.remove(id);
    if (r === null || r.slot === r.movedFrom) return;
    this.#docs[r.slot] = this.#docs[r.movedFrom]!;
    for (const [base, size] of [
      [this.#vectorsAt, this.#stride],
      [this.#codesAt(), this.#codeStride],
      [this.#scalesAt(), 4],
    ] as const) {
      this.#bytes.copyWithin(base + r.slot * size, base + r.movedFrom * size, base + (r.movedFrom + 1) * size);
    }
  }

  /** Where the codes start: after `cap` bit vectors, on a 16-byte boundary (the kernel's loads). */
  #codesAt(cap = this.#cap): number {
    return Math.ceil((this.#vectorsAt + cap * this.#stride) / 16) * 16;
  }

  #scalesAt(cap = this.#cap): number {
    return this.#codesAt(cap) + cap * this.#codeStride;
  }

  /** The scratch regions after the scales: distances or scores, a slot list, positions within reach. */
  #scratch(): { out: number; slotsAt: number; listAt: number } {
    const out = this.#scalesAt() + this.#cap * 4;
    return { out, slotsAt: out + this.#cap * 4, listAt: out + this.#cap * 8 };
  }

  /** Room for `n` vectors (capacity doubles), with the scratch regions after them; the codes and scales move up. */
  #reserve(n: number): void {
    if (n <= this.#cap) return;
    const cap = Math.max(n, this.#cap * 2, 1024);
    const need = this.#scalesAt(cap) + cap * (4 + 4 + 4 + 4);
    const have = this.#memory.buffer.byteLength;
    if (need > have) this.#memory.grow(Math.ceil((need - have) / PAGE));
    this.#bytes = new Uint8Array(this.#memory.buffer); // growing detached the old view
    const size = this.#slots.size;
    // the later region first: each moves up, into room the other no longer needs
    this.#bytes.copyWithin(this.#scalesAt(cap), this.#scalesAt(), this.#scalesAt() + size * 4);
    this.#bytes.copyWithin(this.#codesAt(cap), this.#codesAt(), this.#codesAt() + size * this.#codeStride);
    const docs = new Float64Array(cap);
    docs.set(this.#docs.subarray(0, size));
    this.#docs = docs;
    this.#cap = cap;
  }

  /** The query's sign bits, as sqlite-vec's vec_quantize_binary packs them (bit i of byte j is dimension 8j + i). */
  #writeQuery(q: Float32Array): void {
    const b = this.#bytes;
    b.fill(0, 0, this.#stride);
    for (let j = 0; j < q.length >> 3; j++) {
      let byte = 0;
      for (let i = 0; i < 8; i++) if (q[8 * j + i]! > 0) byte |= 1 << i;
      b[j] = byte;
    }
  }
}

/** Calls `fn` with each id of a `group_concat` list of positive integers, parsed in place (no split strings). */
function forEachId(list: string, fn: (id: number) => void): void {
  for (let i = 0, id = 0; i <= list.length; i++) {
    const c = i < list.length ? list.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) id = id * 10 + (c - 48);
    else if (c !== 44) throw new Error(`id list holds ${JSON.stringify(list.slice(i, i + 12))}: ids are positive integers`);
    else {
      fn(id);
      id = 0;
    }
  }
}

/**
 * The positions of the `r` highest of `score` (r < its length), ascending: those above the r-th best and, first
 * come, as many at it as fit. The r-th best by quickselect on a copy (a native sort of the copy took ~8× as long).
 */
function bestPositions(score: Float32Array, r: number): number[] {
  const cut = kthLargest(Float32Array.from(score), r);
  let ties = r;
  for (const x of score) if (x > cut) ties--;
  const at: number[] = [];
  for (let i = 0; i < score.length; i++) {
    const x = score[i]!;
    if (x > cut || (x === cut && ties-- > 0)) at.push(i);
  }
  return at;
}

/** The k-th largest of `values` (1 ≤ k ≤ length), which it reorders: quickselect (Hoare's partition), O(n). */
export function kthLargest(values: Float32Array, k: number): number {
  const target = values.length - k; // its index in ascending order
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const x = values[i]!;
        values[i++] = values[j]!;
        values[j--] = x;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return pivot; // between the two parts: equal to the pivot
  }
  return values[target]!;
}

const byConnection = new WeakMap<Database, CoarseIndex>();

/**
 * The coarse index of `db` brought up to date if a search or a warm-up has loaded it already, else null: for a caller
 * that would not load it for its own sake (a keyword search asking its chunks' documents).
 */
export function loadedCoarseIndex(db: Database): CoarseIndex | null {
  return byConnection.has(db) ? coarseIndex(db) : null;
}

/**
 * The coarse index of `db`'s vectors, brought up to date in the caller's read snapshot; null when the index has
 * no vector tables. One per connection: a reopened index file (reindex) gets a fresh one.
 */
export function coarseIndex(db: Database): CoarseIndex | null {
  const dim = vectorDim(db);
  let c = byConnection.get(db);
  if (dim === null) {
    byConnection.delete(db);
    return null;
  }
  if (!c || c.dim !== dim) {
    c = new CoarseIndex(dim);
    byConnection.set(db, c);
  }
  c.sync(db);
  return c;
}
