// IndexView's keyword search answers with hits in the HTTP API's shape (snake_case, snippets, locations), k taken
// from the request or the default and capped at maxK, the request's filters applied, and the index state attached.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 2, maxK: 3, minScore: 0, defaultMode: 'bm25', userId: 'default' };

function seeded(t: Parameters<typeof tempIndex>[0]) {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(
    doc(
      'Projects/kiln.md',
      [chunk(0, 'intro'), chunk(1, 'the kiln fires stoneware at cone ten', { headingPath: ['Studio', 'Firing'], line: 12 })],
      { title: 'Firing Log' },
    ),
  );
  ix.writer.upsertDocument(doc('Projects/glaze.md', [chunk(0, 'glaze tests for the kiln: celadon and tenmoku')]));
  ix.writer.upsertDocument(doc('Journal/monday.md', [chunk(0, 'loaded the kiln before lunch')]));
  ix.writer.upsertDocument(doc('Journal/tuesday.md', [chunk(0, 'unloaded the kiln, two pots cracked')]));
  ix.writer.upsertDocument(doc('Private/kiln-debt.md', [chunk(0, 'I still owe money for the kiln')], { sensitive: true }));
  ix.writer.upsertDocument(doc('Other/soup.md', [chunk(0, 'a recipe for lentil soup')]));
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());
  return view;
}

t.test('a keyword search returns defaultK hits in the API shape, with the index state', async (t) => {
  const view = seeded(t);
  const r = await view.search({ query: 'kiln' });
  t.equal(r.mode, 'bm25');
  t.equal(r.degraded, null, 'keyword search was asked: nothing degraded');
  t.equal(r.results.length, 2, 'defaultK hits');
  t.ok(
    r.results.every((h) => /kiln/i.test(h.snippet)),
    'snippets show the match',
  );
  t.match(r.index, { documents: 6, chunks: 7, vectors: 0, model: null });
  t.ok(r.took_ms >= 0);

  const found = (await view.search({ query: 'stoneware cone' })).results;
  t.same(found.length, 1);
  t.match(found[0], {
    path: 'Projects/kiln.md',
    title: 'Firing Log',
    heading_path: ['Studio', 'Firing'],
    start_line: 12,
    end_line: 17,
    sensitive: false,
    source_type: 'vault',
  });
  t.same(Object.keys(found[0]!).sort(), [
    'also',
    'end_line',
    'heading_path',
    'path',
    'score',
    'sensitive',
    'snippet',
    'source_type',
    'start_line',
    'title',
  ]);
});

t.test('k above maxK is capped, and filters narrow the hits', async (t) => {
  const view = seeded(t);
  t.equal((await view.search({ query: 'kiln', k: 50 })).results.length, 3, 'capped at maxK');
  t.equal((await view.search({ query: 'kiln', k: 1 })).results.length, 1);
  const inProjects = (await view.search({ query: 'kiln', k: 3, filters: { path_prefix: 'Projects/' } })).results.map((h) => h.path).sort();
  t.same(inProjects, ['Projects/glaze.md', 'Projects/kiln.md']);
  const inJournal = (await view.search({ query: 'kiln', k: 3, filters: { folder: 'Journal/' } })).results.map((h) => h.path).sort();
  t.same(inJournal, ['Journal/monday.md', 'Journal/tuesday.md'], '`folder` is a path prefix too');

  const debt = async (include?: boolean) =>
    (
      await view.search({ query: 'owe money', k: 3, filters: include === undefined ? undefined : { include_sensitive: include } })
    ).results.map((h) => h.path);
  t.same(await debt(), [], 'sensitive notes are left out by default');
  t.same(await debt(true), ['Private/kiln-debt.md'], 'and found when asked');
});
