// A hybrid search reads its keyword half while main's query pool embeds the query (searchWhileEmbedding), here or in
// the keyword thread: whatever the store writer or a reindex changes meanwhile, the answer holds only notes that pass
// the filters when the vector arrives, from the file the search started on; after a swap, vector search reads the new
// file's vectors.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { KeywordThread } from '../../actors/gateway/keyword-thread.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { swapIndexFiles } from '../../actors/store-writer/swap.js';
import { Board } from '../../supervisors/runtime/board.js';
import { fillIndex, heldBack } from '../helpers/held-model.js';
import { chunk, doc } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 10, maxK: 20, minScore: 0, defaultMode: 'hybrid', userId: 'default' };

/** A keyword thread for `view`, taking reads before the test goes on; closed with the test. */
async function withThread(t: { teardown(fn: () => Promise<void>): void }, view: IndexView): Promise<KeywordThread> {
  const keywords = new KeywordThread();
  t.teardown(() => keywords.close());
  keywords.start();
  await keywords.whenReady();
  view.keywords = keywords;
  return keywords;
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
    const { writer } = await fillIndex(t, file, model, {
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

  t.test('keyword rows the thread read before a note was made sensitive or deleted do not bring it back', async (t) => {
    const file = fresh();
    const { writer } = await fillIndex(t, file, model, {
      'heron-private.md': 'The heron nest by the weir has three eggs.',
      'heron-gone.md': 'A grey heron stood still on the riverbank.',
      'heron-kept.md': 'We counted one heron and two egrets on the lake.',
    });
    const view = new IndexView(file, new Board(), limits);
    t.teardown(() => view.close());
    const keywords = await withThread(t, view);
    const held = heldBack(model);
    view.provider = { state: 'ready', provider: held.provider };
    const pending = view.search({ query: 'heron', mode: 'hybrid', group: 'chunk', k: 3 });
    await keywords.idle(); // the thread has read its rows: all three notes hold the word
    writer.upsertDocument(doc('heron-private.md', [chunk(0, 'The heron nest by the weir has three eggs.')], { sensitive: true }));
    writer.deleteDocument('vault', 'heron-gone.md');
    held.release();
    const res = await pending;
    t.equal(keywords.answered, 1, 'the keyword rows came from the thread');
    t.same(paths(res), ['heron-kept.md'], 'only the note that still passes the filters');
  });

  for (const thread of [false, true])
    t.test(
      `a search in flight when the index is swapped finishes on the file it started on${thread ? ' (keyword thread)' : ''}`,
      async (t) => {
        const live = fresh();
        const next = path.join(path.dirname(live), 'index.next.sqlite');
        (await fillIndex(t, live, model, { 'old.md': 'An old note about a heron by the weir.' })).close();
        const board = new Board();
        const view = new IndexView(live, board, limits);
        t.teardown(() => view.close());
        const keywords = thread ? await withThread(t, view) : null;
        const held = heldBack(model);
        view.provider = { state: 'ready', provider: held.provider };
        const pending = view.search({ query: 'heron', mode: 'hybrid' });
        await keywords?.idle(); // the thread has read the old file's rows

        (await fillIndex(t, next, model, { 'new.md': 'A new note: the heron came back to the weir.' }, 5)).close(); // as a reindex closes it
        swapIndexFiles(next, live);
        board.add('indexGeneration', 1);
        t.same(paths(await view.search({ query: 'heron', mode: 'bm25' })), ['new.md'], 'a search after the swap reads the new file');
        held.release();
        t.same(paths(await pending), ['old.md'], 'the one in flight answers from the file it started on');
        if (!keywords) return;
        view.provider = { state: 'ready', provider: model };
        t.same(paths(await view.search({ query: 'heron', mode: 'hybrid' })), ['new.md'], 'the thread reads the new file after the swap');
        t.equal(keywords.answered, 2, 'both hybrid searches took their rows from the thread');
      },
    );

  t.test("after a swap, vector search reads the new file's vectors", async (t) => {
    const live = fresh();
    const next = path.join(path.dirname(live), 'index.next.sqlite');
    const old = await fillIndex(t, live, model, {
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
    (await fillIndex(t, next, model, { 'cat.md': 'Our cat naps in the sun by the window all afternoon.' }, 5)).close();
    swapIndexFiles(next, live);
    board.add('indexGeneration', 1);
    t.equal(await top(), 'cat.md', 'the pet of the new index is found by meaning');
  });
});
