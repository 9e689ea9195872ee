// A hybrid search that arrives while the query model is loading waits for it rather than degrade, then embeds the
// query with it (the real use-lite model) and finds a note that shares no word with the query.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 3, maxK: 20, minScore: 0, defaultMode: 'hybrid', userId: 'default' };

const NOTES: Record<string, string> = {
  'dog.md': 'My dog loves to chase the ball in the park every morning.',
  'taxes.md': 'Quarterly tax filing deadlines and the forms the accountant needs.',
  'bike.md': 'How to replace a worn bicycle chain and adjust the derailleur.',
  'soup.md': 'A recipe for lentil soup with cumin, carrots and lemon.',
};

t.test('a hybrid search waits for the model, then finds the note by meaning', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-view-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const model = await createUseLiteProvider({ cacheDir: path.join(dir, 'models'), quantize: 'fp32' });
  t.teardown(() => model.close());

  const file = path.join(dir, 'index.sqlite');
  const db = openIndex(file, { readonly: false });
  t.teardown(() => db.close());
  const writer = new IndexWriter(db, { model: model.info, chunkerVersion: 'test-1', now: () => 1_700_000_000_000 });
  for (const [p, text] of Object.entries(NOTES)) {
    const [vector] = await model.embed([text]);
    writer.upsertDocument(doc(p, [chunk(0, text, { vector })]));
  }

  const view = new IndexView(file, new Board(), limits);
  t.teardown(() => view.close());
  let loaded!: () => void;
  view.providerSettled = new Promise<void>((resolve) => {
    loaded = () => {
      view.provider = { state: 'ready', provider: model };
      resolve();
    };
  });

  const query = 'puppy playing fetch outdoors';
  const keyword = await view.search({ query, mode: 'bm25' });
  t.same(keyword.results, [], 'no note shares a word with the query');

  const pending = view.search({ query }); // asked while the model is still loading
  loaded();
  const res = await pending;
  t.equal(res.mode, 'hybrid', 'it waited for the model instead of answering keyword-only');
  t.equal(res.degraded, null);
  t.equal(res.results[0]?.path, 'dog.md', 'the note about a dog and a ball comes first');
  t.same(res.index.vector_search, { available: true, reason: null });
  t.same(res.index.model, model.info);
  t.equal(res.index.vectors, 4);
});
