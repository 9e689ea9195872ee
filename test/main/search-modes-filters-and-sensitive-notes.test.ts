// Search modes and filters over HTTP: partial keyword matches rank, paraphrases are found by vectors, filters
// narrow, and sensitive notes stay out unless asked for — every result saying whether it is sensitive.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

t.test('modes, filters and sensitive exclusion', async (t) => {
  const { d } = await daemonOn(t, {
    'Projects/boat.md': '---\ntags: [sailing, repairs]\n---\n# Boat\n\nThe sailboat hull needs new varnish before launch.\n',
    'Projects/car.md':
      '---\ntags: [repairs]\n---\n# Car\n\nThe car brakes squeal; replace the pads and check the varnish on the dashboard.\n',
    'People/ines.md': '---\nsensitive: true\n---\n# Ines\n\nInes shared her varnish allergy and her home address.\n',
    'Daily/2026-11-20.md': '# Friday\n\nWent to the dentist; the tooth filling is done.\n',
  });
  const paths = (r: { results: Array<{ path: string }> }) => r.results.map((h) => h.path);

  const some = await d.search('sailboat varnish launch brakes', { mode: 'bm25', k: 5 });
  t.same(paths(some).slice(0, 2), ['Projects/boat.md', 'Projects/car.md'], 'documents with only some words are found, most matches first');

  const para = await d.search('dental appointment', { mode: 'vector', k: 1 });
  t.equal(paths(para)[0], 'Daily/2026-11-20.md', 'a paraphrase sharing no word is found by vector search');
  t.equal(para.mode, 'vector');

  const hybrid = await d.search('varnish', { k: 10 });
  t.notOk(paths(hybrid).includes('People/ines.md'), 'sensitive notes are excluded by default');
  t.ok(hybrid.results.every((h: { sensitive: boolean }) => h.sensitive === false));
  const withSensitive = await d.search('varnish allergy', { k: 10, filters: { include_sensitive: true } });
  const ines = withSensitive.results.find((h: { path: string }) => h.path === 'People/ines.md');
  t.ok(ines, 'included when asked for');
  t.equal(ines?.sensitive, true, 'and flagged');

  t.same(
    paths(await d.search('varnish', { mode: 'bm25', filters: { path_prefix: 'Projects/boat' } })),
    ['Projects/boat.md'],
    'path prefix',
  );
  const both = await d.api('POST', '/v1/search', { query: 'varnish', filters: { path_prefix: 'Projects', folder: 'Daily' } });
  t.match(both, { status: 400, body: { error: { reason: 'bad_request', message: /path_prefix or folder .*not both/ } } }, 'not both names');
  t.same(paths(await d.search('varnish', { mode: 'bm25', filters: { tags: ['sailing'] } })), ['Projects/boat.md'], 'tags');
  t.same(paths(await d.search('varnish', { mode: 'bm25', filters: { since: Date.now() + 60_000 } })), [], 'since');
  t.same(paths(await d.search('varnish', { mode: 'bm25', filters: { source_type: 'chat' } })), [], 'source type');

  const none = await d.search('xylophone quasar', { mode: 'bm25' });
  t.same(none.results, []);
  t.match(none.index, { pending: 0, reconciled: true }, 'an empty answer still says the index is caught up');
  t.ok(none.index.last_indexed_at);

  for (const q of ['"unbalanced', 'NEAR(a b', 'a* OR -b', '(((', 'col:value', "'; DROP TABLE memory_chunks; --"]) {
    const r = await d.api('POST', '/v1/search', { query: q, mode: 'bm25' });
    t.equal(r.status, 200, `hostile query ${JSON.stringify(q)} is just text`);
  }
  const clamp = await d.search('the', { mode: 'bm25', k: 10_000 });
  t.ok(clamp.results.length <= 50, 'k is clamped to search.max_k');
});
