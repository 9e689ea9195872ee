// vault_link's graph (every note's links and aliases, resolved once) is kept until a vault note's row changes:
// chat turns, tasks and facts are written to the index all the time and never change a link, so they must not
// make the next vault_link re-read every note. A note's change (the store writer's `vaultWrites`) or a swapped
// index (`indexGeneration`) does.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../../actors/gateway/index-view.js';
import { LinkGraphCache } from '../../../actors/gateway/tools/link-graph.js';
import { Board } from '../../../supervisors/runtime/board.js';
import { chunk, doc, tempIndex } from '../../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 10, maxK: 20, minScore: 0, defaultMode: 'bm25', userId: 'default' };
const linking = (from: string, to: string) =>
  doc(from, [chunk(0, `see [[${to}]]`)], { metadata: { links: [{ target: to, line: 1, embed: false }] } });

t.test('episodes leave the graph as built; a note written or an index swapped rebuilds it', async (t) => {
  const ix = tempIndex(t, { dim: null });
  ix.writer.upsertDocument(doc('Heron.md', [chunk(0, 'a grey bird')]));
  ix.writer.upsertDocument(linking('Walks/Weir.md', 'Heron'));
  const board = new Board();
  const view = new IndexView(ix.file, board, limits);
  t.teardown(() => view.close());
  const cache = new LinkGraphCache(view);
  const first = cache.get();
  t.same(
    first.backlinks.get('Heron.md')?.map((b) => b.from),
    ['Walks/Weir.md'],
  );
  t.equal(cache.get(), first, 'asked again with nothing written: the same graph');

  ix.writer.upsertDocument(doc('chat:s1:1', [chunk(0, 'user: the heron was back')], { sourceType: 'chat' }));
  board.add('storeWrites', 1); // what the store writer does after an episode batch
  t.equal(cache.get(), first, 'an episode written: still the same graph');

  ix.writer.upsertDocument(linking('Walks/Marsh.md', 'Heron'));
  board.add('storeWrites', 1);
  board.add('vaultWrites', 1); // ... and after a note's upsert, delete or rename
  const second = cache.get();
  t.not(second, first, 'a note written: rebuilt');
  t.same(
    second.backlinks
      .get('Heron.md')
      ?.map((b) => b.from)
      .sort(),
    ['Walks/Marsh.md', 'Walks/Weir.md'],
    'with its link',
  );

  board.add('indexGeneration', 1);
  t.not(cache.get(), second, 'an index swapped in: rebuilt');
});
