// Whatever sequence of writes the actor applies, FTS rows, vectors, chunks and documents never disagree.
import t from 'tap';
import fc from 'fast-check';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { chunk, doc, randomUnit, rng, tempIndex, testModel } from '../helpers/index-fixture.js';

const PATHS = ['a.md', 'b.md', 'dir/c.md', 'dir/d.md'];
// Chinese and Japanese words and titles put chunks in the character-pair table too.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', '远程仓库', '会議'];

type Op =
  | { kind: 'upsert'; path: string; words: number[]; withVectors: boolean; title: string }
  | { kind: 'touch'; path: string }
  | { kind: 'delete'; path: string }
  | { kind: 'rename'; from: string; to: string; title: string }
  | { kind: 'model'; version: string };

const path = fc.constantFrom(...PATHS);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('upsert' as const),
      path,
      words: fc.array(fc.nat(WORDS.length - 1), { maxLength: 5 }),
      withVectors: fc.boolean(),
      title: fc.constantFrom('T1', 'T2', '笔记'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const), path }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('rename' as const), from: path, to: path, title: fc.constantFrom('R1', 'R2', '标题') }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('model' as const), version: fc.constantFrom('1', '2') }) },
);

t.test('consistency() is all zeros after any sequence of upserts, touches, deletes, renames and model changes', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const r = rng(5);
  let w = writer;
  let runs = 0;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
      runs++;
      for (const o of ops) {
        clock.advance(1);
        switch (o.kind) {
          case 'upsert': {
            // Repeated words give chunks with equal hashes, the case the chunk diff must match in order.
            const chunks = o.words.map((wi, i) => chunk(i, `${WORDS[wi]} text`, { vector: o.withVectors ? randomUnit(16, r) : null }));
            w.upsertDocument(doc(o.path, chunks, { title: o.title }));
            break;
          }
          case 'touch':
            w.touchDocument('vault', o.path, clock.now(), 1);
            break;
          case 'delete':
            w.deleteDocument('vault', o.path);
            break;
          case 'rename':
            w.renameDocument('vault', o.from, o.to, o.title, clock.now(), 1);
            break;
          case 'model':
            w = new IndexWriter(db, { model: { ...testModel(16), version: o.version }, chunkerVersion: 't', now: clock.now });
            break;
        }
        const c = w.reader.consistency();
        if (Object.values(c).some((n) => n !== 0)) throw new Error(`after ${JSON.stringify(o)}: ${JSON.stringify(c)}`);
      }
    }),
    { seed: 20240601, numRuns: 60 },
  );
  t.equal(runs, 60);
  t.ok(w.reader.counts().chunks + w.reader.counts().deleted > 0, 'the sequences did write something');
});
