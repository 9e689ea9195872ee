// Whatever a user types, search never fails with an FTS5 syntax error: words are quoted, operators are text.
import t from 'tap';
import fc from 'fast-check';
import { search } from '../../actors/gateway/search.js';
import { ftsTerms } from '../../actors/gateway/fts-query.js';
import { chunk, doc, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const NASTY = [
  '',
  ' ',
  '\t\n',
  '"',
  '""',
  '"unbalanced',
  "it's",
  'NEAR(',
  'NEAR(a b',
  'NEAR(a b, 2)',
  '*',
  '**',
  'a*',
  '*a',
  '-',
  '-foo',
  'foo -bar',
  '+',
  '^',
  '^foo',
  'title:foo',
  'content:',
  ':',
  'AND',
  'OR',
  'NOT',
  'a AND',
  'OR OR OR',
  'NOT NOT',
  '(',
  ')',
  '(a OR',
  '{a b}:c',
  'a:b:c',
  '\\',
  '\0',
  '\u0000abc',
  '🙂',
  '🙂 fox',
  'ﬁle',
  'Ǆ',
  'İstanbul',
  'naïve café',
  '日本語のテキスト',
  'עברית',
  '\u200b',
  '\ud800',
  'x'.repeat(10_000),
  'fox '.repeat(500),
  '%',
  '_',
  "'; DROP TABLE memory_documents; --",
  '@match',
  '?',
  '$1',
];

t.test('hostile strings search without throwing in every mode', async (t) => {
  const { db, writer } = tempIndex(t);
  const r = rng(7);
  writer.upsertDocument(
    doc('a.md', [chunk(0, 'the quick brown fox and the naïve café in İstanbul 日本語', { vector: randomUnit(16, r) })]),
  );
  const qv = randomUnit(16, r);
  for (const q of NASTY) {
    for (const mode of ['bm25', 'hybrid', 'vector'] as const) {
      t.doesNotThrow(() => search(db, { query: q, k: 5, mode }, qv), `${mode}: ${JSON.stringify(q.slice(0, 30))}`);
    }
  }
  t.equal(search(db, { query: '🙂 fox', k: 5, mode: 'bm25' }, null).length, 1, 'the real word in a hostile query still matches');
  t.equal(search(db, { query: 'NEAR(fox', k: 5, mode: 'bm25' }, null).length, 1);
  t.equal(search(db, { query: 'cafe', k: 5, mode: 'bm25' }, null).length, 1, 'diacritics are folded');
  t.same(search(db, { query: '', k: 5, mode: 'bm25' }, null), [], 'an empty query finds nothing');
  t.same(ftsTerms('  '), [], 'nothing to look for');
});

t.test('random strings never throw (fast-check, fixed seed)', async (t) => {
  const { db, writer } = tempIndex(t, { dim: null });
  writer.upsertDocument(doc('a.md', [chunk(0, 'some text to match against, with "quotes" and (parens)')]));
  let n = 0;
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({ unit: fc.constantFrom('"', '*', '(', ')', '-', ':', '^', 'NEAR', 'AND', ' ', 'a', 'é', '🙂'), maxLength: 30 }),
      ),
      (q) => {
        n++;
        search(db, { query: q, k: 3, mode: 'bm25' }, null);
      },
    ),
    { seed: 424242, numRuns: 1000 },
  );
  t.equal(n, 1000);
});
