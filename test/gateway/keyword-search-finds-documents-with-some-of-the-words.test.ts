// BM25 search matches chunks holding any of the query's words and ranks those holding more of them first.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

const FILLER = [
  'gardening tips for spring',
  'tax forms and deadlines',
  'a recipe for lentil soup',
  'notes on piano practice',
  'travel packing list',
  'bicycle repair steps',
  'meeting minutes from monday',
  'reading list for winter',
];

function seeded(t: Parameters<typeof tempIndex>[0]) {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(doc('three.md', [chunk(0, 'the ferrous kiln melts copper ingots slowly')]));
  ix.writer.upsertDocument(doc('two.md', [chunk(0, 'a ferrous kiln stands in the yard')]));
  ix.writer.upsertDocument(doc('one.md', [chunk(0, 'copper wire on the bench')]));
  ix.writer.upsertDocument(doc('none.md', [chunk(0, 'nothing relevant lives here')]));
  FILLER.forEach((f, i) => ix.writer.upsertDocument(doc(`filler-${i}.md`, [chunk(0, f)])));
  return ix;
}

t.test('documents with only some of the words are found, more words ranking higher', async (t) => {
  const { db } = seeded(t);
  const hits = search(db, { query: 'ferrous kiln copper ', k: 10, mode: 'bm25' }, null);
  t.same(
    hits.map((h) => h.path),
    ['three.md', 'two.md', 'one.md'],
  );
  t.ok(
    hits.every((h) => h.score > 0 && h.score < 1),
    'bm25 scores are normalised to 0..1',
  );
  t.ok(hits[0]!.score > hits[1]!.score && hits[1]!.score > hits[2]!.score);
});

t.test('stop words do not match everything, but a query of only stop words still searches', async (t) => {
  const { db } = seeded(t);
  t.same(
    search(db, { query: 'the copper', k: 10, mode: 'bm25' }, null)
      .map((h) => h.path)
      .sort(),
    ['one.md', 'three.md'],
  );
  t.same(
    search(db, { query: 'the', k: 10, mode: 'bm25' }, null)
      .map((h) => h.path)
      .sort(),
    ['one.md', 'three.md', 'two.md'],
  );
});

t.test('a query word is a whole word, not a prefix (queries are finished questions)', async (t) => {
  const { db } = seeded(t);
  t.same(search(db, { query: 'ferr', k: 10, mode: 'bm25' }, null), [], 'no prefix expansion');
  t.same(search(db, { query: 'ferr*', k: 10, mode: 'bm25' }, null), [], 'a typed * is plain text too');
});

t.test('stemming finds other forms of a word, and minScore drops weak hits', async (t) => {
  const { db } = seeded(t);
  t.same(
    search(db, { query: 'melting', k: 10, mode: 'bm25' }, null).map((h) => h.path),
    ['three.md'],
  );
  const all = search(db, { query: 'ferrous kiln copper ', k: 10, mode: 'bm25' }, null);
  const cut = (all[0]!.score + all[1]!.score) / 2;
  t.same(
    search(db, { query: 'ferrous kiln copper ', k: 10, mode: 'bm25', minScore: cut }, null).map((h) => h.path),
    ['three.md'],
  );
});

t.test('a hit carries its location and a snippet around the match', async (t) => {
  const { db, writer } = tempIndex(t, { dim: null });
  const long = `${'lorem ipsum dolor sit amet '.repeat(30)}the zymurgy section explains brewing ${'consectetur adipiscing elit '.repeat(30)}`;
  writer.upsertDocument(
    doc('deep/brew.md', [chunk(0, 'intro'), chunk(1, long, { headingPath: ['Brewing', 'Zymurgy'], line: 40 })], { title: 'Brew Book' }),
  );
  const [hit, ...rest] = search(db, { query: 'zymurgy', k: 5, mode: 'bm25' }, null);
  t.same(rest, []);
  t.match(hit, {
    path: 'deep/brew.md',
    title: 'Brew Book',
    headingPath: ['Brewing', 'Zymurgy'],
    startLine: 40,
    endLine: 45,
    sourceType: 'vault',
    sensitive: false,
  });
  t.match(hit!.snippet, /zymurgy section/);
  t.ok(hit!.snippet.length <= 240, `snippet is short (${hit!.snippet.length})`);
  t.notMatch(hit!.snippet, /\n/);
});

t.test('words in the heading path and the title are searchable', async (t) => {
  const { db, writer } = tempIndex(t, { dim: null });
  writer.upsertDocument(doc('h.md', [chunk(0, 'plain body', { headingPath: ['Quokka Habitat'] })], { title: 'Marsupials' }));
  t.equal(search(db, { query: 'quokka', k: 5, mode: 'bm25' }, null).length, 1);
  t.equal(search(db, { query: 'marsupials', k: 5, mode: 'bm25' }, null).length, 1);
});
