// By default a search answers one result per note: the note's best section, with up to 3 of its other matching
// sections in `also` (best first). `group: "chunk"` keeps one result per section. An agent asking for 3 results
// gets 3 notes, not 3 sections of the one long note that mentions the word most.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

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
