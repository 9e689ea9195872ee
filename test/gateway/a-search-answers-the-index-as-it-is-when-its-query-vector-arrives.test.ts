// A hybrid search reads its keyword half while main's query pool embeds the query (searchWhileEmbedding): whatever
// the store writer or a reindex changes meanwhile, the answer holds only notes that pass the filters when the vector
// arrives, from the file the search started on; after a swap, vector search reads the new file's vectors.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { search, searchWhileEmbedding } from '../../actors/gateway/search.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { swapIndexFiles } from '../../actors/store-writer/swap.js';
import type { EmbeddingProvider } from '../../messages/embedding.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 10, maxK: 20, minScore: 0, defaultMode: 'hybrid', userId: 'default' };
const NOW = () => 1_700_000_000_000;

type Model = Awaited<ReturnType<typeof createUseLiteProvider>>;

/** The real model, whose answers are held back until `release()`: the query is "still being embedded". */
function heldBack(model: Model): { provider: Pick<EmbeddingProvider, 'info' | 'embed'>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return {
    provider: {
      info: model.info,
      embed: async (texts) => {
        const v = await model.embed(texts);
        await gate;
        return v;
      },
    },
    release,
  };
}

/** An index at `file` with these notes, their vectors from the real model; the writer stays open until `close`. */
async function fill(
  t: { teardown(fn: () => void): void },
  file: string,
  model: Model,
  notes: Record<string, string>,
  dropFirst = 0,
): Promise<{ writer: IndexWriter; close: () => void }> {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = openIndex(file, { readonly: false });
  const close = () => db.open && db.close();
  t.teardown(close);
  const writer = new IndexWriter(db, { model: model.info, chunkerVersion: 'test-1', now: NOW });
  // notes written and deleted first: this file's chunk ids start past another file's
  for (let i = 0; i < dropFirst; i++) writer.upsertDocument(doc(`dropped-${i}.md`, [chunk(0, `dropped ${i}`)]));
  for (let i = 0; i < dropFirst; i++) writer.deleteDocument('vault', `dropped-${i}.md`);
  for (const [p, text] of Object.entries(notes)) {
    const [vector] = await model.embed([text]);
    writer.upsertDocument(doc(p, [chunk(0, text, { vector })]));
  }
  return { writer, close };
}

const paths = (r: { results: Array<{ path?: string }> }): string[] => r.results.map((h) => h.path ?? '').sort();

t.test('with the real model', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-inflight-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const model = await createUseLiteProvider({ cacheDir: path.join(dir, 'models'), quantize: 'fp32' });
  t.teardown(() => model.close());
  let n = 0;
  const fresh = () => path.join(dir, `${++n}`, 'index.sqlite');

  t.test('a note renamed out of the folder, made sensitive or deleted meanwhile is not answered', async (t) => {
    const file = fresh();
    const { writer } = await fill(t, file, model, {
      'Projects/heron-moved.md': 'A heron waded through the reeds at dawn.',
      'Projects/heron-private.md': 'The heron nest by the weir has three eggs.',
      'Projects/heron-gone.md': 'A grey heron stood still on the riverbank.',
      'Projects/heron-kept.md': 'We counted one heron and two egrets on the lake.',
    });
    const view = new IndexView(file, new Board(), limits);
    t.teardown(() => view.close());
    const ask = () => view.search({ query: 'heron', mode: 'hybrid', group: 'chunk', filters: { folder: 'Projects/' } });
    view.provider = { state: 'ready', provider: model };
    t.equal(paths(await ask()).length, 4, 'before: all four notes are found');

    const held = heldBack(model);
    view.provider = { state: 'ready', provider: held.provider };
    const pending = ask(); // its keyword half has run by now; the vector is held back
    writer.renameDocument('vault', 'Projects/heron-moved.md', 'Archive/heron-moved.md', 'heron-moved', 2000, 40);
    // the same text (its chunk and vector kept), now marked sensitive
    writer.upsertDocument(doc('Projects/heron-private.md', [chunk(0, 'The heron nest by the weir has three eggs.')], { sensitive: true }));
    writer.deleteDocument('vault', 'Projects/heron-gone.md');
    held.release();
    const res = await pending;
    t.equal(res.mode, 'hybrid');
    t.equal(res.degraded, null);
    t.same(paths(res), ['Projects/heron-kept.md'], 'only the note that still passes the filters');
  });

  t.test('with nothing written meanwhile, the answer is the one search() gives with the vector at hand', async (t) => {
    // the second half then reuses what the keyword half learned of its chunks (documents, the filters' verdicts)
    const file = fresh();
    const notes: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      const dir = i % 3 === 0 ? 'Archive' : 'Birds';
      notes[`${dir}/heron-${i}.md`] = `Heron sighting ${i}: a grey heron fished by the weir, ${i % 2 ? 'egrets nearby' : 'alone at dusk'}.`;
    }
    notes['Birds/kingfisher.md'] = 'A kingfisher dived from the willow into the river.';
    await fill(t, file, model, notes);
    const db = openIndex(file, { readonly: true });
    t.teardown(() => db.close());
    for (const [query, filters] of [
      ['heron by the weir', { includeSensitive: false }],
      ['grey heron fishing', { includeSensitive: false, pathPrefix: 'Birds/' }],
      ['bird diving into a river', { includeSensitive: false }],
    ] as const) {
      const [qv] = await model.embed([query], 'query');
      const req = { query, k: 5, mode: 'hybrid' as const, group: 'note' as const, userId: 'default', filters };
      const direct = search(db, req, qv!);
      const overlapped = await searchWhileEmbedding(db, req, Promise.resolve(qv!));
      t.ok(direct.length > 0, `${query}: found`);
      t.same(overlapped, direct, `${query}: the same hits, scores and sections`);
    }
  });

  t.test('a search in flight when the index is swapped finishes on the file it started on', async (t) => {
    const live = fresh();
    const next = path.join(path.dirname(live), 'index.next.sqlite');
    (await fill(t, live, model, { 'old.md': 'An old note about a heron by the weir.' })).close();
    const board = new Board();
    const view = new IndexView(live, board, limits);
    t.teardown(() => view.close());
    const held = heldBack(model);
    view.provider = { state: 'ready', provider: held.provider };
    const pending = view.search({ query: 'heron', mode: 'hybrid' });

    (await fill(t, next, model, { 'new.md': 'A new note: the heron came back to the weir.' }, 5)).close(); // as a reindex closes it
    swapIndexFiles(next, live);
    board.add('indexGeneration', 1);
    t.same(paths(await view.search({ query: 'heron', mode: 'bm25' })), ['new.md'], 'a search after the swap reads the new file');
    held.release();
    t.same(paths(await pending), ['old.md'], 'the one in flight answers from the file it started on');
  });

  t.test("after a swap, vector search reads the new file's vectors", async (t) => {
    const live = fresh();
    const next = path.join(path.dirname(live), 'index.next.sqlite');
    const old = await fill(t, live, model, {
      'dog.md': 'My dog loves to chase the ball in the park every morning.',
      'soup.md': 'A recipe for lentil soup with cumin, carrots and lemon.',
      'bike.md': 'How to replace a worn bicycle chain and adjust the derailleur.',
    });
    old.close();
    const board = new Board();
    const view = new IndexView(live, board, limits);
    t.teardown(() => view.close());
    view.provider = { state: 'ready', provider: model };
    view.warm();
    const top = async (): Promise<string | undefined> =>
      (await view.search({ query: 'puppy playing fetch', mode: 'vector', k: 1 })).results[0]?.path;
    t.equal(await top(), 'dog.md');
    // the new file's chunk ids start past the old file's: a coarse pass over the old file's bits would find none of them
    (await fill(t, next, model, { 'cat.md': 'Our cat naps in the sun by the window all afternoon.' }, 5)).close();
    swapIndexFiles(next, live);
    board.add('indexGeneration', 1);
    t.equal(await top(), 'cat.md', 'the pet of the new index is found by meaning');
  });
});
