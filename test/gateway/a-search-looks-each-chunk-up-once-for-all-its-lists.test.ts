// One search meets many chunks more than once (the keyword list, both vector passes, the feedback seeds, the note
// ranking): passing() answers the filters and each chunk's document from what the search has already looked up
// (ChunkFacts), and asks the index only about the chunks it has not met, under the same filters as SQL's WHERE would.
import t from 'tap';
import { chunkFacts, filterSql, passing } from '../../actors/gateway/filter-sql.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

t.test('the filters and documents of the chunks met, looked up once', async (t) => {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(doc('Projects/a.md', [chunk(0, 'alpha one'), chunk(1, 'alpha two')]));
  ix.writer.upsertDocument(doc('Projects/secret.md', [chunk(0, 'beta')], { sensitive: true }));
  ix.writer.upsertDocument(doc('Other/c.md', [chunk(0, 'gamma')]));
  const ids = ix.db.prepare('SELECT c.id FROM memory_chunks c ORDER BY c.id').pluck().all() as number[];
  const docOf = new Map(
    (ix.db.prepare('SELECT id, document_id AS d FROM memory_chunks').all() as Array<{ id: number; d: number }>).map((r) => [r.id, r.d]),
  );
  const [a1, a2, secret, other] = ids as [number, number, number, number];
  const gone = Math.max(...ids) + 100; // no such chunk
  const filters = filterSql('default', {});

  const facts = chunkFacts();
  t.same(passing(ix.db, filters, [other, secret, gone, a1, a1], facts), [other, a1, a1], 'in the order given; sensitive and missing fail');
  t.same(
    [...facts.doc].sort((x, y) => x[0] - y[0]),
    [a1, secret, other].map((id) => [id, docOf.get(id)]),
    'the documents of the chunks it found, failing the filters or not',
  );
  t.same(
    [...facts.pass.keys()].sort((x, y) => x - y),
    [a1, secret, other, gone],
    'a verdict for each chunk asked about',
  );

  // within one snapshot nothing changes; here the same connection writes in between, so a verdict it kept shows
  ix.writer.upsertDocument(doc('Other/c.md', [chunk(0, 'gamma')], { sensitive: true }));
  t.same(passing(ix.db, filters, [other, a2], facts), [other, a2], 'a chunk met before is not asked about again');
  t.same(passing(ix.db, filters, [other, a2]), [a2], 'without the facts, the index is asked');
  t.equal(facts.doc.get(a2), docOf.get(a2), 'the newly met chunk adds its document');

  // a caller's filter
  const folder = filterSql('default', { pathPrefix: 'Projects/' });
  t.same(passing(ix.db, folder, [a1, a2, other, secret]), [a1, a2], 'the folder filter');
});
