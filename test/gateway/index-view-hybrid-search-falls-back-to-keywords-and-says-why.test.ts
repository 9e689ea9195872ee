// When vectors cannot be used — the model is still loading, it failed to start, or the index was built by another
// model — a hybrid or vector search still answers with keyword hits and says why; state() reports the same reason.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, randomUnit, rng, tempIndex, testModel } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 5, maxK: 20, minScore: 0, defaultMode: 'hybrid', userId: 'default' };
const r = rng(11);

function seeded(t: Parameters<typeof tempIndex>[0]) {
  const ix = tempIndex(t, { dim: 16 }); // vectors from a 16-d test model
  ix.writer.upsertDocument(doc('axolotl.md', [chunk(0, 'the axolotl regenerates limbs', { vector: randomUnit(16, r) })]));
  ix.writer.upsertDocument(doc('newt.md', [chunk(0, 'newts live in ponds', { vector: randomUnit(16, r) })]));
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());
  return view;
}

t.test('while the model is loading, hybrid and vector searches answer with keywords', async (t) => {
  const view = seeded(t);
  const starting = 'embedder_starting: the model is loading';
  for (const mode of [undefined, 'hybrid', 'vector'] as const) {
    const res = await view.search({ query: 'axolotl', mode });
    t.equal(res.mode, 'bm25', `${mode ?? 'the default mode'} answers as bm25`);
    t.equal(res.degraded, starting);
    t.same(
      res.results.map((h) => h.path),
      ['axolotl.md'],
    );
  }
  t.same(view.state().vector_search, { available: false, reason: starting });
  const asked = await view.search({ query: 'axolotl', mode: 'bm25' });
  t.equal(asked.degraded, null, 'a keyword search asked as such is not degraded');
});

t.test('a model that could not start is named in the answer and the state', async (t) => {
  const view = seeded(t);
  view.provider = { state: 'unavailable', reason: 'model_missing: no model.onnx in /models' };
  const res = await view.search({ query: 'axolotl' });
  t.equal(res.mode, 'bm25');
  t.equal(res.degraded, 'embedder_unavailable: model_missing: no model.onnx in /models');
  t.same(
    res.results.map((h) => h.path),
    ['axolotl.md'],
  );
  const s = view.state();
  t.same(s.vector_search, { available: false, reason: 'embedder_unavailable: model_missing: no model.onnx in /models' });
  t.same(s.embedder.reason, 'model_missing: no model.onnx in /models');
  t.equal(s.embedder.model, null);
});

t.test('an index built by another model is a model mismatch: keywords answer and reindex is named', async (t) => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(cacheDir, { recursive: true, force: true }));
  const useLite = await createUseLiteProvider({ cacheDir, quantize: 'fp32' });
  t.teardown(() => useLite.close());
  const view = seeded(t);
  view.provider = { state: 'ready', provider: useLite };

  const s = view.state();
  t.same(s.model, testModel(16), 'the model that built the stored vectors');
  t.same(s.embedder.model, useLite.info, 'the model configured now');
  t.equal(s.vector_search.available, false);
  const reason = `model_mismatch: the index was built with test:synthetic@1/16 but use-lite:${useLite.info.name}@${useLite.info.version}/512 is configured; run \`memvault reindex\``;
  t.equal(s.vector_search.reason, reason);

  for (const mode of ['hybrid', 'vector'] as const) {
    const res = await view.search({ query: 'axolotl', mode });
    t.equal(res.mode, 'bm25', `${mode} never compares vectors of two models`);
    t.equal(res.degraded, reason);
    t.same(
      res.results.map((h) => h.path),
      ['axolotl.md'],
    );
  }
});
