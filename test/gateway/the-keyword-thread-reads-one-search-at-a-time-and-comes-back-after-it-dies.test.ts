// The gateway's keyword thread (keyword-thread.ts): a hybrid search answers the same whether its keyword rows come
// from the thread or from the gateway; the thread takes one search at a time (another reads its own rows meanwhile);
// when it dies, searches read their rows themselves until it is started again RESTART_AFTER_MS later.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { KeywordThread, RESTART_AFTER_MS } from '../../actors/gateway/keyword-thread.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { Board } from '../../supervisors/runtime/board.js';
import { fillIndex, heldBack } from '../helpers/held-model.js';

const limits: SearchLimits = { defaultK: 5, maxK: 20, minScore: 0, defaultMode: 'hybrid', userId: 'default' };

const NOTES: Record<string, string> = {
  'birds/heron.md': 'A grey heron stood still on the riverbank, waiting for fish by the weir.',
  'birds/egret.md': 'Two egrets and a heron fished in the shallow lake at dawn.',
  'kitchen/soup.md': 'A recipe for lentil soup with cumin, carrots and lemon juice.',
  'kitchen/bread.md': 'Sourdough bread needs a lively starter, flour, water and salt, and a long slow rise.',
  'bikes/chain.md': 'How to replace a worn bicycle chain and adjust the rear derailleur.',
  'bikes/tyre.md': 'Fixing a flat tyre: remove the wheel, find the puncture, patch the inner tube.',
  'garden/tomato.md': 'Tomato plants want sun, deep watering and a stake to climb; pinch out the side shoots.',
  'garden/compost.md': 'Compost kitchen scraps with dry leaves; turn the heap every week or two.',
  'work/standup.md': 'The daily standup: what I did yesterday, what I will do today, what blocks me.',
  'work/review.md': 'Code review checklist: tests pass, names are clear, errors are handled.',
};
const QUERIES = ['heron fishing', 'how do I fix a puncture', 'soup with lentils', 'what blocks the team today', 'bread rise'];

t.test('with the real model', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-keyword-thread-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const model = await createUseLiteProvider({ cacheDir: path.join(dir, 'models'), quantize: 'fp32' });
  t.teardown(() => model.close());
  const file = path.join(dir, 'index', 'index.sqlite');
  (await fillIndex(t, file, model, NOTES)).close();

  // the gateway alone, and the gateway with a thread on the same file
  const alone = new IndexView(file, new Board(), limits);
  const view = new IndexView(file, new Board(), limits);
  t.teardown(() => {
    alone.close();
    view.close();
  });
  alone.provider = { state: 'ready', provider: model };
  view.provider = { state: 'ready', provider: model };
  let now = 0;
  const keywords = new KeywordThread({ now: () => now });
  t.teardown(() => keywords.close());
  keywords.start();
  await keywords.whenReady();
  view.keywords = keywords;
  const expected = new Map<string, unknown>();
  for (const q of QUERIES) expected.set(q, (await alone.search({ query: q })).results);
  const answersAsAlone = async (t: Test, v: IndexView, q: string): Promise<void> => {
    const r = await v.search({ query: q });
    t.equal(r.mode, 'hybrid');
    t.same(r.results, expected.get(q), `"${q}" answers as the gateway alone`);
  };

  t.test('a search answers as it would with its keyword rows read in the gateway', async (t) => {
    for (const q of QUERIES) await answersAsAlone(t, view, q);
    t.equal(keywords.answered, QUERIES.length, 'every keyword read came from the thread');
  });

  t.test('two searches at once: one reads its rows in the thread, the other in the gateway', async (t) => {
    const before = keywords.answered;
    const held = heldBack(model);
    view.provider = { state: 'ready', provider: held.provider };
    const [a, b] = [view.search({ query: QUERIES[0]! }), view.search({ query: QUERIES[1]! })];
    held.release();
    const [ra, rb] = await Promise.all([a, b]);
    view.provider = { state: 'ready', provider: model };
    t.same(ra.results, expected.get(QUERIES[0]!));
    t.same(rb.results, expected.get(QUERIES[1]!));
    t.equal(keywords.answered, before + 1, 'the thread took one of the two');
  });

  t.test('after the thread dies, searches read their own rows until it is started again', async (t) => {
    const before = keywords.answered;
    await keywords.kill();
    t.equal(keywords.deaths, 1);
    t.equal(keywords.starts, 1);
    t.equal(keywords.ready, false);
    await answersAsAlone(t, view, QUERIES[2]!);
    now += RESTART_AFTER_MS - 1;
    await answersAsAlone(t, view, QUERIES[3]!);
    t.equal(keywords.starts, 1, 'not started again before RESTART_AFTER_MS');
    now += 1;
    await answersAsAlone(t, view, QUERIES[4]!); // starts it; it does not take reads until it has loaded
    t.equal(keywords.starts, 2, 'started again by the first search after RESTART_AFTER_MS');
    t.equal(keywords.answered, before, 'no read went to a dead or starting thread');
    await keywords.whenReady();
    await answersAsAlone(t, view, QUERIES[0]!);
    t.equal(keywords.answered, before + 1, 'the new thread reads again');
  });
});
