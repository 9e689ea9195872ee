// Keyword search matches only the rows of a query's rarer words when they already find enough rows, its most common
// words then only scoring those rows (match-budget.ts), and remembers how many rows each word matches until the index
// changes: a write by the store writer's connection or by the searching one itself is seen by the next search.
import t from 'tap';
import { MATCH_BUDGET, matchExpression } from '../../actors/gateway/match-budget.js';
import { search } from '../../actors/gateway/search.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

/** `n` notes holding `word` (one chunk each), named `${word}-i.md`. */
function notes(ix: ReturnType<typeof tempIndex>, word: string, n: number, from = 0): void {
  ix.db.transaction(() => {
    for (let i = from; i < from + n; i++) ix.writer.upsertDocument(doc(`${word}-${i}.md`, [chunk(0, `${word} note number ${i}`)]));
  })();
}

const paths = (db: Parameters<typeof search>[0]): string[] =>
  search(db, { query: 'marmot ubiquitous', k: 200, mode: 'bm25', group: 'chunk' }, null).map((h) => h.path);

for (const reader of ['the writing connection', 'another connection'] as const) {
  t.test(`a word that became rare is matched again, searched on ${reader}`, async (t) => {
    const ix = tempIndex(t, { dim: null });
    notes(ix, 'ubiquitous', MATCH_BUDGET);
    notes(ix, 'marmot', 250);
    const db = reader === 'another connection' ? openIndex(ix.file, { readonly: true }) : ix.db;
    if (db !== ix.db) t.teardown(() => db.close());

    // 250 marmot rows are enough for a k of 200: the 5,000 ubiquitous rows would pass the budget and are left out
    const before = paths(db);
    t.equal(before.length, 200);
    t.ok(
      before.every((p) => p.startsWith('marmot-')),
      'only the rare word is matched',
    );

    // now too few marmots are left to fill k on their own: the common word must be matched again
    ix.db.transaction(() => {
      for (let i = 0; i < 240; i++) ix.writer.deleteDocument('vault', `marmot-${i}.md`);
    })();
    const after = paths(db);
    t.equal(after.length, 200, 'k filled');
    t.equal(after.filter((p) => p.startsWith('marmot-')).length, 10, 'the ten marmots left come first…');
    t.ok(
      after.slice(0, 10).every((p) => p.startsWith('marmot-')),
      '…ranked above the common word',
    );
    t.ok(
      after.slice(10).every((p) => p.startsWith('ubiquitous-')),
      'the common word fills the rest',
    );

    // and back: once marmots are plentiful again, the common word is left out again
    notes(ix, 'marmot', 250, 1000);
    t.ok(
      paths(db).every((p) => p.startsWith('marmot-')),
      'the common word is left out again',
    );
  });
}

t.test('past the budget a common word still ranks the rows that hold it above those that do not', async (t) => {
  const ix = tempIndex(t, { dim: null });
  notes(ix, 'ubiquitous', MATCH_BUDGET);
  notes(ix, 'marmot', 250);
  // the one row holding both words, as long as a marmot note and titled like one
  ix.writer.upsertDocument(doc('marmot-7b.md', [chunk(0, 'marmot ubiquitous number 7')]));
  const hits = paths(ix.db);
  t.equal(hits.length, 200);
  t.equal(hits[0], 'marmot-7b.md', 'the row with both words first (left out of the match, the common word ranked nothing)');
  t.ok(
    hits.every((p) => !p.startsWith('ubiquitous-')),
    'rows holding only the common word are still not matched',
  );
});

t.test("the search's budget decides when only the rarer words choose rows", async (t) => {
  const ix = tempIndex(t, { dim: null });
  notes(ix, 'ubiquitous', MATCH_BUDGET);
  notes(ix, 'marmot', 250);
  const terms = ['"ubiquitous"', '"marmot"'];
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 200, read: 200 }),
    '("marmot") AND ("marmot" OR "ubiquitous")',
    'the default: past it',
  );
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 200, read: 200 }, 3 * MATCH_BUDGET),
    '"marmot" OR "ubiquitous"',
    'a larger one: within it',
  );
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 300, read: 300 }),
    '"marmot" OR "ubiquitous"',
    'too few rare rows for what is needed',
  );
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 200, read: 300 }),
    '"marmot" OR "ubiquitous"',
    'a word within the budget is let in for the rows the list only reads',
  );
  // with a budget of 1,000, "ubiquitous" (2,500 rows) matches more rows than the whole budget
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 200, read: 300 }, 1000),
    '("marmot") AND ("marmot" OR "ubiquitous")',
    'a word past the whole budget is not let in for rows the list only reads',
  );
  t.equal(
    matchExpression(ix.db, 'memory_fts', terms, { rank: 300, read: 300 }, 1000),
    '"marmot" OR "ubiquitous"',
    'but is for rows the list ranks',
  );
  // and the request's budget is the one a search uses: past the budget the rare word's phrase is in the expression
  // twice, so bm25 scores the same top row higher than when every word is simply OR'ed
  const top = (matchBudget?: number) =>
    search(ix.db, { query: 'marmot ubiquitous', k: 1, mode: 'bm25', group: 'chunk', matchBudget }, null)[0]!;
  t.ok(top().score > top(3 * MATCH_BUDGET).score, `${top().score} > ${top(3 * MATCH_BUDGET).score}`);
  t.equal(top().path, top(3 * MATCH_BUDGET).path, 'the same row on top');
});
