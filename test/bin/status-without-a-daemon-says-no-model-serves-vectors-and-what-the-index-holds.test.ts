// `memvault status` with no daemon: nothing is loading a model, so it must not say "embedder_starting"; it says that no
// daemon runs, so vector search is not served, and what the index holds (how many vectors, which model built them).
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';

t.test('status without a daemon says vectors are not served and what the index holds', async (t) => {
  const v = makeVault({
    'Inbox/otters.md': '# Otters\n\nOtters hold hands while they sleep so they do not drift apart.\n',
    'Inbox/bees.md': '# Bees\n\nHoney bees dance to tell the hive where the flowers are.\n',
  });
  t.teardown(() => v.cleanup());
  t.equal((await cli(['index', '--vault', v.dir])).code, 0);

  const text = await cli(['status', '--vault', v.dir]);
  t.equal(text.code, 0, text.stderr);
  t.notMatch(text.stdout, /embedder_starting|loading/, 'no model is said to be loading');
  const vectors = /\nvectors:\s+(.*)\n/.exec(text.stdout)?.[1] ?? '';
  t.match(vectors, /^not served — no daemon runs, so no model is loaded/);
  t.match(vectors, /the index holds 2 vectors built with universal-sentence-encoder-lite@0\.2\.0$/);

  const json = JSON.parse((await cli(['status', '--vault', v.dir, '--json'])).stdout);
  t.equal(json.daemon, null);
  t.match(json.index.vector_search, { available: false, reason: /^no_daemon: no daemon runs/ });
  t.match(json.index.embedder, { state: 'not_running', reason: null });
  t.equal(json.index.vectors, 2);
  t.match(json.index.model, { name: 'universal-sentence-encoder-lite', version: '0.2.0', dim: 512 });

  // a keyword search without a daemon loads no model either, and its index state says the same
  const s = JSON.parse((await cli(['search', '--vault', v.dir, '--json', '--mode', 'bm25', 'otters'])).stdout);
  t.equal(s.results[0]?.path, 'Inbox/otters.md');
  t.match(s.index.vector_search, { available: false, reason: /^no_daemon:/ });
});
