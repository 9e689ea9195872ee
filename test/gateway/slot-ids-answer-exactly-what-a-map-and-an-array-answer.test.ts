// The coarse index's compact id ↔ slot structure (slot-ids.ts) against the plain Map and array it replaced: after
// any adds, removes and clears, every id's slot, every slot's id, the size and each removal's move are the same.
import t from 'tap';
import fc from 'fast-check';
import { SlotIds } from '../../actors/gateway/slot-ids.js';

type Op = { kind: 'add'; id: number } | { kind: 'remove'; id: number } | { kind: 'clear' } | { kind: 'reserve'; n: number };

// few distinct ids, so adds repeat and removes hit; some beyond 32 bits, so the high word feeds the hash
const id = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 32, 2 ** 32 + 1, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER) },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: id.map((i) => ({ kind: 'add' as const, id: i })) },
  { weight: 6, arbitrary: id.map((i) => ({ kind: 'remove' as const, id: i })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 300 }).map((n) => ({ kind: 'reserve' as const, n })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

/** The old coarse index's bookkeeping: ids by slot, and a Map of each id's slot; a removal fills its slot with the last. */
class Model {
  ids: number[] = [];
  slotOf = new Map<number, number>();
  add(i: number): number {
    const s = this.slotOf.get(i);
    if (s !== undefined) return s;
    this.ids.push(i);
    this.slotOf.set(i, this.ids.length - 1);
    return this.ids.length - 1;
  }
  remove(i: number): { slot: number; movedFrom: number } | null {
    const s = this.slotOf.get(i);
    if (s === undefined) return null;
    this.slotOf.delete(i);
    const last = this.ids.length - 1;
    const lastId = this.ids.pop()!;
    if (s !== last) {
      this.ids[s] = lastId;
      this.slotOf.set(lastId, s);
    }
    return { slot: s, movedFrom: last };
  }
}

t.test('after any adds, removes and clears, slots and ids are what the Map and the array answer', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      const got = new SlotIds();
      const want = new Model();
      for (const o of ops) {
        switch (o.kind) {
          case 'add':
            if (got.add(o.id) !== want.add(o.id)) return false;
            break;
          case 'remove': {
            const a = got.remove(o.id);
            const b = want.remove(o.id);
            if (JSON.stringify(a) !== JSON.stringify(b)) return false;
            break;
          }
          case 'reserve':
            got.reserve(o.n);
            break;
          case 'clear':
            got.clear();
            want.ids = [];
            want.slotOf.clear();
            break;
        }
        if (got.size !== want.ids.length) return false;
      }
      for (let s = 0; s < want.ids.length; s++) if (got.idAt(s) !== want.ids[s]) return false;
      for (const i of [...want.slotOf.keys(), 0, 201, 2 ** 33, ...want.ids.map((x) => x + 0.5)])
        if (got.slotOf(i) !== (want.slotOf.get(i) ?? -1)) return false;
      checked++;
      return true;
    }),
    { numRuns: 500 },
  );
  t.equal(checked, 500, 'every run compared');
});

t.test('a slot beyond the ids held and an id that is not an integer are refused', async (t) => {
  const s = new SlotIds();
  s.add(7);
  t.equal(s.idAt(0), 7);
  t.throws(() => s.idAt(1), /slot 1 is outside 0\.\.0/);
  t.throws(() => s.add(1.5), /chunk id must be a safe integer, got 1.5/);
  t.throws(() => s.add(2 ** 53), /safe integer/);
  t.equal(s.size, 1, 'a refused add changes nothing');
});

t.test('100k ids in order, then every other one removed: each remaining id keeps a slot that answers it', async (t) => {
  const s = new SlotIds();
  for (let i = 1; i <= 100_000; i++) s.add(i * 3);
  t.equal(s.size, 100_000);
  let wrong = 0;
  for (let i = 2; i <= 100_000; i += 2) if (s.remove(i * 3) === null) wrong++;
  t.equal(s.size, 50_000);
  for (let i = 1; i <= 100_000; i++) {
    const slot = s.slotOf(i * 3);
    if (i % 2 === 0 ? slot !== -1 : s.idAt(slot) !== i * 3) wrong++;
  }
  t.equal(wrong, 0, 'no id answered wrongly');
});
