// By default a search answers one result per note: the note's best section, with up to 3 of its other matching
// sections in `also` (best first). `group: "chunk"` keeps one result per section. An agent asking for 3 results
// gets 3 notes, not 3 sections of the one long note that mentions the word most.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { search } from '../../actors/gateway/search.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, randomUnit, rng, tempIndex, vectorAtCosine } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 3, maxK: 20, minScore: 0, defaultMode: 'bm25', userId: 'default' };

t.test('one result per note, other matching sections in also; group chunk keeps sections apart', async (t) => {
  const ix = tempIndex(t, { dim: null });
  // the long note: six sections that all say "kiln", more often than any other note does
  ix.writer.upsertDocument(
    doc(
      'Studio/kiln-manual.md',
      Array.from({ length: 6 }, (_, i) =>
        chunk(i, `kiln kiln kiln section ${i} about the kiln`, { headingPath: ['Manual', `Part ${i}`], line: 10 * i + 1 }),
      ),
    ),
  );
  ix.writer.upsertDocument(doc('Journal/monday.md', [chunk(0, 'loaded the kiln before lunch and went out for a long walk')]));
  ix.writer.upsertDocument(doc('Journal/tuesday.md', [chunk(0, 'unloaded the kiln, two pots cracked, one survived the night')]));
  ix.writer.upsertDocument(doc('Other/soup.md', [chunk(0, 'a recipe for lentil soup')]));
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());

  const chunks = (await view.search({ query: 'kiln', group: 'chunk' })).results;
  t.same(
    chunks.map((h) => h.path),
    ['Studio/kiln-manual.md', 'Studio/kiln-manual.md', 'Studio/kiln-manual.md'],
    'per section, the long note crowds out every other',
  );
  t.notOk('also' in chunks[0]!, 'and sections carry no also');

  const notes = (await view.search({ query: 'kiln' })).results;
  t.same(notes.map((h) => h.path).sort(), ['Journal/monday.md', 'Journal/tuesday.md', 'Studio/kiln-manual.md'], 'three notes');
  const manual = notes.find((h) => h.path === 'Studio/kiln-manual.md')!;
  t.equal(notes[0], manual, 'the long note still ranks first');
  t.equal(manual.also?.length, 3, 'with three more of its sections (the cap), not all five');
  const scores = [manual.score, ...(manual.also ?? []).map((a) => a.score)];
  t.same(
    scores,
    [...scores].sort((a, b) => b - a),
    'best section first, then the others best first',
  );
  t.same(
    new Set([manual.start_line, ...(manual.also ?? []).map((a) => a.start_line)]).size,
    4,
    'four different sections, each with its own lines',
  );
  t.match(manual.also?.[0], { heading_path: ['Manual', /^Part \d$/], snippet: /kiln/ });
  t.same(
    notes.filter((h) => h.path !== manual.path).map((h) => h.also),
    [[], []],
    'a one-section note has nothing in also',
  );
});

t.test('k notes come back in every mode even when one note holds more matching sections than the lists read', async (t) => {
  const { db, writer } = tempIndex(t);
  const r = rng(7);
  const q = randomUnit(16, r);
  // twelve sections of one note say "kiln" most and sit nearest the question: more than k × 3 (the lists' first read)
  writer.upsertDocument(
    doc(
      'Studio/kiln-manual.md',
      Array.from({ length: 12 }, (_, i) =>
        chunk(i, `kiln kiln kiln kiln part ${i}`, { headingPath: ['Manual', `Part ${i}`], vector: vectorAtCosine(q, 0.95 - i / 100, r) }),
      ),
    ),
  );
  for (const [i, day] of ['monday', 'tuesday', 'wednesday', 'thursday'].entries())
    writer.upsertDocument(
      doc(`Journal/${day}.md`, [
        chunk(0, `fired the kiln on ${day} with a long list of other words`, { vector: vectorAtCosine(q, 0.6 - i / 100, r) }),
      ]),
    );
  for (let i = 0; i < 30; i++)
    writer.upsertDocument(doc(`Other/${i}.md`, [chunk(0, `unrelated page ${i}`, { vector: vectorAtCosine(q, 0.1, r) })]));

  for (const mode of ['bm25', 'vector', 'hybrid'] as const)
    for (const k of [2, 3, 4, 5]) {
      const hits = search(db, { query: 'kiln', k, mode, group: 'note' }, q);
      t.equal(hits.length, k, `${mode}, k = ${k}: ${k} notes`);
      t.equal(new Set(hits.map((h) => h.path)).size, k, 'each a different note');
      t.equal(hits[0]?.path, 'Studio/kiln-manual.md', 'the long note first');
    }
  t.equal(search(db, { query: 'kiln', k: 10, mode: 'bm25', group: 'note' }, q).length, 5, 'and no more notes than match');
});
