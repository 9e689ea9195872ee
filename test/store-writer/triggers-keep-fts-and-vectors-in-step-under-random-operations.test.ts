// Whatever sequence of writes the actor applies, FTS rows, vectors, chunks, documents and the counts the triggers keep
// (by user and source type) never disagree.
import t from 'tap';
import fc from 'fast-check';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { chunk, doc, randomUnit, rng, tempIndex, testModel } from '../helpers/index-fixture.js';

const PATHS = ['a.md', 'b.md', 'dir/c.md', 'dir/d.md'];
// Chinese and Japanese words and titles put chunks in the character-pair table too.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', '远程仓库', '会議'];

/** Which writer (two users share the index) and which source type an operation is on. */
interface On {
  user: 0 | 1;
  source: 'vault' | 'chat';
}
type Op = On &
  (
    | { kind: 'upsert'; path: string; words: number[]; withVectors: boolean; title: string }
    | { kind: 'touch'; path: string }
    | { kind: 'delete'; path: string }
    | { kind: 'purge'; path: string }
    | { kind: 'rename'; from: string; to: string; title: string }
    | { kind: 'model'; version: string }
  );

const path = fc.constantFrom(...PATHS);
const on = { user: fc.constantFrom<0 | 1>(0, 0, 0, 1), source: fc.constantFrom<'vault' | 'chat'>('vault', 'vault', 'chat') };
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      ...on,
      kind: fc.constant('upsert' as const),
      path,
      words: fc.array(fc.nat(WORDS.length - 1), { maxLength: 5 }),
      withVectors: fc.boolean(),
      title: fc.constantFrom('T1', 'T2', '笔记'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ ...on, kind: fc.constant('touch' as const), path }) },
  { weight: 2, arbitrary: fc.record({ ...on, kind: fc.constant('delete' as const), path }) },
  { weight: 1, arbitrary: fc.record({ ...on, kind: fc.constant('purge' as const), path }) },
  {
    weight: 2,
    arbitrary: fc.record({ ...on, kind: fc.constant('rename' as const), from: path, to: path, title: fc.constantFrom('R1', 'R2', '标题') }),
  },
  { weight: 1, arbitrary: fc.record({ ...on, kind: fc.constant('model' as const), version: fc.constantFrom('1', '2') }) },
);

t.test('consistency() is all zeros after any sequence of upserts, touches, deletes, purges, renames and model changes', async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const r = rng(5);
  const writerOf = (user: 0 | 1, version: string) =>
    new IndexWriter(db, { model: { ...testModel(16), version }, chunkerVersion: 't', now: clock.now, userId: `user-${user}` });
  const writers = [writer, writerOf(1, testModel(16).version)];
  let runs = 0;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
      runs++;
      for (const o of ops) {
        clock.advance(1);
        const w = writers[o.user]!;
        switch (o.kind) {
          case 'upsert': {
            // Repeated words give chunks with equal hashes, the case the chunk diff must match in order.
            const chunks = o.words.map((wi, i) => chunk(i, `${WORDS[wi]} text`, { vector: o.withVectors ? randomUnit(16, r) : null }));
            w.upsertDocument(doc(o.path, chunks, { title: o.title, sourceType: o.source }));
            break;
          }
          case 'touch':
            w.touchDocument(o.source, o.path, clock.now(), 1);
            break;
          case 'delete':
            w.deleteDocument(o.source, o.path);
            break;
          case 'purge':
            w.hardDeleteDocument(o.source, o.path);
            break;
          case 'rename':
            w.renameDocument(o.source, o.from, o.to, o.title, clock.now(), 1);
            break;
          case 'model':
            writers[0] = writerOf(0, o.version);
            writers[1] = writerOf(1, o.version);
            break;
        }
        const c = w.reader.consistency();
        if (Object.values(c).some((n) => n !== 0)) throw new Error(`after ${JSON.stringify(o)}: ${JSON.stringify(c)}`);
      }
    }),
    { seed: 20240601, numRuns: 60 },
  );
  t.equal(runs, 60);
  const counts = writers.map((w) => w.reader.counts());
  t.ok(
    counts.every((c) => c.documents + c.deleted > 0),
    'the sequences did write something for both users',
  );
});
