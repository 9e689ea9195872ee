// The coarse index's chunk ids: a dense slot → id array and an id → slot hash table, both typed arrays outside the
// V8 heap (~20–30 bytes a chunk, where a Map<number, number> took ~55 bytes of heap and its rehashes left garbage).

const EMPTY = -1;
const MIN_TABLE = 16;

/**
 * Ids in slots 0..size-1 (one dense run, as the bit vectors are) and the slot of each id. Removing an id moves the
 * last slot's id into the freed slot, so the caller moves that slot's data the same way.
 * The table holds slot numbers only (open addressing, linear probing, at most half full); an entry's key is read
 * from the slot array, so each table entry costs 4 bytes.
 */
export class SlotIds {
  #ids = new Float64Array(0);
  #n = 0;
  #table = new Int32Array(MIN_TABLE).fill(EMPTY);
  #shift = 32 - Math.log2(MIN_TABLE);

  /** Ids held. */
  get size(): number {
    return this.#n;
  }

  /** The id in `slot` (0 ≤ slot < size). */
  idAt(slot: number): number {
    if (slot < 0 || slot >= this.#n) throw new RangeError(`slot ${slot} is outside 0..${this.#n - 1}`);
    return this.#ids[slot]!;
  }

  /** The slot of `id`, or -1. */
  slotOf(id: number): number {
    const t = this.#table;
    const mask = t.length - 1;
    for (let i = this.#home(id); ; i = (i + 1) & mask) {
      const s = t[i]!;
      if (s === EMPTY) return -1;
      if (this.#ids[s] === id) return s;
    }
  }

  /** The slot of `id`, added in the next free slot (slot `size`) if it was not held. */
  add(id: number): number {
    if (!Number.isSafeInteger(id)) throw new RangeError(`chunk id must be a safe integer, got ${id}`);
    const s = this.slotOf(id);
    if (s >= 0) return s;
    this.reserve(this.#n + 1);
    const slot = this.#n++;
    this.#ids[slot] = id;
    this.#insert(slot);
    return slot;
  }

  /**
   * Drops `id`. Answers the slot it had and the slot whose id now fills it (the last one; equal when it was the
   * last), or null when it was not held.
   */
  remove(id: number): { slot: number; movedFrom: number } | null {
    const slot = this.slotOf(id);
    if (slot < 0) return null;
    this.#erase(slot);
    const last = this.#n - 1;
    if (slot !== last) {
      this.#erase(last);
      this.#ids[slot] = this.#ids[last]!;
      this.#insert(slot);
    }
    this.#n = last;
    return { slot, movedFrom: last };
  }

  clear(): void {
    this.#n = 0;
    this.#table.fill(EMPTY);
  }

  /** Room for `n` ids without growing (the slot array doubles, the table stays at most half full). */
  reserve(n: number): void {
    if (n > this.#ids.length) {
      const ids = new Float64Array(Math.max(n, this.#ids.length * 2, 1024));
      ids.set(this.#ids.subarray(0, this.#n));
      this.#ids = ids;
    }
    if (2 * n > this.#table.length) {
      let size = this.#table.length;
      while (2 * n > size) size *= 2;
      this.#table = new Int32Array(size).fill(EMPTY);
      this.#shift = 32 - Math.log2(size);
      for (let s = 0; s < this.#n; s++) this.#insert(s);
    }
  }

  /** Where `id`'s probe starts: Fibonacci hashing of its low and high 32 bits. */
  #home(id: number): number {
    const lo = id | 0;
    const hi = Math.floor(id / 4294967296) | 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.#shift;
  }

  /** Enters `slot` (whose id is not in the table) at the first free place of its probe. */
  #insert(slot: number): void {
    const t = this.#table;
    const mask = t.length - 1;
    let i = this.#home(this.#ids[slot]!);
    while (t[i] !== EMPTY) i = (i + 1) & mask;
    t[i] = slot;
  }

  /** Takes `slot`'s entry out, shifting back later entries of the run whose probe would otherwise pass the hole. */
  #erase(slot: number): void {
    const t = this.#table;
    const mask = t.length - 1;
    let i = this.#home(this.#ids[slot]!);
    while (t[i] !== slot) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; t[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.#home(this.#ids[t[j]!]!);
      // the entry at j may fill the hole at i unless its home lies cyclically in (i, j]
      const between = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!between) {
        t[i] = t[j]!;
        i = j;
      }
    }
    t[i] = EMPTY;
  }
}
