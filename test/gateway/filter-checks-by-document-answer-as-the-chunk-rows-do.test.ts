// A search checks its candidates against the filters by their documents, taken from the coarse index's chunk →
// document map when it has the chunk (filter-sql.ts, `passing`): the same verdicts, and the same documents, as reading
// each chunk's row, whatever the filters and the ids (other users', sensitive, deleted, without a vector, unknown).
import t from 'tap';
import fc from 'fast-check';
import { coarseIndex } from '../../actors/gateway/coarse-index.js';
import { chunkFacts, filterSql, passing } from '../../actors/gateway/filter-sql.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { chunk, doc, randomUnit, rng, tempIndex, testModel } from '../helpers/index-fixture.js';

t.test("passing answers the same through the coarse index's documents as through chunk rows", async (t) => {
  const ix = tempIndex(t, { dim: 8 });
  const other = new IndexWriter(ix.db, { userId: 'other', model: testModel(8), chunkerVersion: 'test-1', now: ix.clock.now });
  const r = rng(23);
  const path = (i: number) => `${i % 3 ? 'a' : 'b'}/n${i}.md`;
  for (let i = 0; i < 60; i++) {
    ix.clock.advance(1000);
    (i % 7 === 3 ? other : ix.writer).upsertDocument(
      doc(
        path(i),
        Array.from({ length: 1 + (i % 4) }, (_, s) => chunk(s, `n${i} s${s}`, { vector: i % 5 === 4 ? null : randomUnit(8, r) })),
        { sensitive: i % 6 === 1, tags: i % 4 === 0 ? ['x'] : [], sourceType: i % 9 === 2 ? 'chat' : 'vault' },
      ),
    );
  }
  for (const i of [5, 17, 40]) ix.writer.deleteDocument('vault', path(i));
  const maxId = ix.db.prepare('SELECT max(id) FROM memory_chunks').pluck().get() as number;
  const known = ix.db.transaction(() => {
    const c = coarseIndex(ix.db)!;
    return Array.from({ length: maxId }, (_, i) => c.docOf(i + 1)).filter((d) => d !== undefined).length;
  })();
  const seen = { known: 0, passed: 0, failed: 0 };
  fc.assert(
    fc.property(
      fc.record({
        user: fc.constantFrom('default', 'other'),
        includeSensitive: fc.boolean(),
        pathPrefix: fc.option(fc.constantFrom('a/', 'b/'), { nil: undefined }),
        sourceType: fc.option(fc.constantFrom('vault', 'chat'), { nil: undefined }),
        tags: fc.option(fc.constant<string[]>(['x']), { nil: undefined }),
        since: fc.option(fc.integer({ min: 1_700_000_000_000, max: 1_700_000_070_000 }), { nil: undefined }),
      }),
      fc.array(fc.array(fc.integer({ min: 1, max: maxId + 5 }), { maxLength: 60 }), { minLength: 1, maxLength: 3 }),
      ({ user, ...f }, batches) => {
        ix.db.transaction(() => {
          const filters = filterSql(user, f);
          const c = coarseIndex(ix.db)!;
          const byDoc = chunkFacts((id) => c.docOf(id));
          const byRow = chunkFacts();
          for (const ids of batches) {
            const a = passing(ix.db, filters, ids, byDoc);
            const b = passing(ix.db, filters, ids, byRow);
            if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${JSON.stringify(f)} ${ids}: ${a} by document, ${b} by row`);
            for (const id of a) if (byDoc.doc.get(id) !== byRow.doc.get(id)) throw new Error(`chunk ${id}: another document`);
            seen.known += ids.filter((id) => c.docOf(id) !== undefined).length;
            seen.passed += a.length;
            seen.failed += ids.length - a.length;
          }
        })();
      },
    ),
    { numRuns: 300, seed: 7 },
  );
  t.ok(known > 60 && known < maxId, `the coarse index knows ${known} of ${maxId} chunk ids (the rest: no vector or gone)`);
  t.ok(seen.known > 0 && seen.passed > 0 && seen.failed > 0, `both verdicts met: ${JSON.stringify(seen)}`);
});
