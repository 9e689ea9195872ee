// Filters (path prefix, source type, since, tags, sensitivity) apply to keyword and vector search alike.
import t from 'tap';
import { search } from '../../actors/gateway/search.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import type { SearchFilters, SearchMode } from '../../messages/store.js';
import { chunk, doc, near, randomUnit, rng, tempIndex } from '../helpers/index-fixture.js';

const r = rng(8);
const topic = randomUnit(16, r);

function seeded(t: Parameters<typeof tempIndex>[0]) {
  const ix = tempIndex(t);
  const { writer, clock } = ix;
  const add = (path: string, over: Parameters<typeof doc>[2] = {}) =>
    writer.upsertDocument(doc(path, [chunk(0, `walrus facts in ${path}`, { vector: near(topic, 0.3, r) })], over));
  add('projects/alpha/plan.md', { tags: ['project/alpha', 'Planning'] });
  add('projects/beta/plan.md', { tags: ['project/beta'] });
  add('journal/2024-01-01.md', { tags: ['journal'] });
  add('private/diary.md', { sensitive: true, tags: ['journal'] });
  add('chat-1', { sourceType: 'chat' });
  clock.advance(60_000);
  const since = clock.now();
  add('journal/2024-06-01.md', { tags: ['journal', 'planning'] });
  return { ...ix, since };
}

const paths = (db: Parameters<typeof search>[0], mode: SearchMode, filters: SearchFilters) =>
  search(db, { query: 'walrus', k: 20, mode, filters }, near(topic, 0.1, r))
    .map((h) => h.path)
    .sort();

for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
  t.test(`${mode}: each filter keeps exactly the matching notes`, async (t) => {
    const { db, since } = seeded(t);
    t.same(
      paths(db, mode, {}),
      ['chat-1', 'journal/2024-01-01.md', 'journal/2024-06-01.md', 'projects/alpha/plan.md', 'projects/beta/plan.md'],
      'sensitive left out by default',
    );
    t.same(paths(db, mode, { includeSensitive: true }).length, 6, 'and included when asked');
    t.same(paths(db, mode, { pathPrefix: 'projects/' }), ['projects/alpha/plan.md', 'projects/beta/plan.md']);
    t.same(paths(db, mode, { pathPrefix: 'projects/al' }), ['projects/alpha/plan.md']);
    t.same(paths(db, mode, { sourceType: 'chat' }), ['chat-1']);
    t.same(paths(db, mode, { since }), ['journal/2024-06-01.md']);
    t.same(paths(db, mode, { tags: ['journal'] }), ['journal/2024-01-01.md', 'journal/2024-06-01.md']);
    t.same(paths(db, mode, { tags: ['journal'], includeSensitive: true }), [
      'journal/2024-01-01.md',
      'journal/2024-06-01.md',
      'private/diary.md',
    ]);
    t.same(paths(db, mode, { tags: ['#Journal', 'planning'] }), ['journal/2024-06-01.md'], 'all tags must be present, any case');
    t.same(paths(db, mode, { tags: ['project'] }), ['projects/alpha/plan.md', 'projects/beta/plan.md'], 'a parent tag matches nested tags');
    t.same(paths(db, mode, { tags: ['proj'] }), [], 'but a tag prefix is not a parent');
    t.same(paths(db, mode, { pathPrefix: 'journal/', tags: ['planning'], since }), ['journal/2024-06-01.md'], 'filters combine');
  });
}

t.test('sensitive hits say so when included', async (t) => {
  const { db } = seeded(t);
  const hits = search(db, { query: 'walrus', k: 20, mode: 'bm25', filters: { includeSensitive: true } }, null);
  t.same(
    hits.filter((h) => h.sensitive).map((h) => h.path),
    ['private/diary.md'],
  );
});

t.test('vector search widens its candidates when most near chunks are filtered out', async (t) => {
  const { db, writer } = tempIndex(t);
  const q = randomUnit(16, r);
  // 600 sensitive chunks right by the query, 20 public ones further away: the first coarse pass finds only sensitive ones.
  for (let d = 0; d < 60; d++) {
    writer.upsertDocument(
      doc(
        `secret/${d}.md`,
        Array.from({ length: 10 }, (_, i) => chunk(i, `s ${d} ${i}`, { vector: near(q, 0.2, r) })),
        { sensitive: true },
      ),
    );
  }
  for (let d = 0; d < 20; d++) writer.upsertDocument(doc(`public/${d}.md`, [chunk(0, `p ${d}`, { vector: near(q, 1.5, r) })]));
  const hits = search(db, { query: '', k: 10, mode: 'vector' }, q);
  t.equal(hits.length, 10);
  t.ok(hits.every((h) => h.path.startsWith('public/') && !h.sensitive));
  // A path filter that leaves 20 of 620 chunks takes the exact plan: it must agree with the widened coarse one.
  const exact = search(db, { query: '', k: 10, mode: 'vector', filters: { pathPrefix: 'public/' } }, q);
  t.same(
    exact.map((h) => h.chunkId),
    hits.map((h) => h.chunkId),
    'exact and widened coarse plans agree',
  );
  const all = search(db, { query: '', k: 10, mode: 'vector', filters: { includeSensitive: true } }, q);
  t.ok(
    all.every((h) => h.path.startsWith('secret/')),
    'without the filter the near sensitive chunks win',
  );
  t.ok(all[0]!.score > hits[0]!.score && all[0]!.score <= 1, 'vector scores are cosine similarities');
});

t.test("another user's documents are neither found nor listed", async (t) => {
  const { db, writer, clock } = tempIndex(t);
  const alice = new IndexWriter(db, { userId: 'alice', model: null, chunkerVersion: 'test-1', now: clock.now });
  alice.upsertDocument(doc('shared/name.md', [chunk(0, 'walrus of alice', { vector: near(topic, 0.1, r) })]));
  writer.upsertDocument(doc('shared/name.md', [chunk(0, 'walrus of default', { vector: near(topic, 0.1, r) })]));
  for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
    const hits = search(db, { query: 'walrus', k: 5, mode, userId: 'alice' }, near(topic, 0.1, r));
    t.same(
      hits.map((h) => h.snippet),
      ['walrus of alice'],
      mode,
    );
  }
  t.same([...new IndexReader(db, { userId: 'alice' }).documentStats('vault').keys()], ['shared/name.md']);
  t.equal(writer.reader.counts().documents, 1, 'counts are per user');
});
