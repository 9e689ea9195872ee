// The daemon indexes the bundled example vault and answers status, search and metrics over HTTP with a token.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

t.test('the example vault is indexed and searchable over HTTP', async (t) => {
  const { d } = await daemonOn(t, {}, '', { copyExample: true });

  const status = await d.api('GET', '/v1/status');
  t.equal(status.status, 200);
  const ix = status.body.index;
  t.ok(ix.documents >= 15, `indexed ${ix.documents} notes`);
  t.ok(ix.chunks >= ix.documents, 'every note has at least one chunk');
  t.equal(ix.vectors, ix.chunks, 'every chunk has a vector');
  t.equal(ix.pending, 0);
  t.ok(ix.last_indexed_at, 'last_indexed_at is set');
  t.match(ix.model, { provider: 'use-lite', dim: 512 });

  const r = await d.search('why did we pick SQLite for the desktop cache', { k: 5 });
  t.ok(r.results.length > 0, 'results');
  t.match(r.results[0].path, /ADR-003/, 'the decision record answers first');
  t.equal(r.mode, 'hybrid');
  t.match(r.index, { pending: 0 }, 'every response carries the index state');
  for (const h of r.results) {
    t.type(h.start_line, 'number');
    t.ok(Array.isArray(h.heading_path));
    t.equal(h.sensitive, false, 'sensitive notes are excluded by default');
  }
  // Templates/ and .obsidian/ are ignored
  const tpl = await d.search('{{date}} template', { k: 20, mode: 'bm25' });
  t.notOk(
    tpl.results.some((h: { path: string }) => h.path.startsWith('Templates/')),
    'Templates/ is not indexed',
  );
});

t.test('every /v1 route needs the bearer token; healthz and metrics do not', async (t) => {
  const { d } = await daemonOn(t, { 'Inbox/a.md': '# A\n\nalpha beta gamma\n' });

  t.equal((await d.api('GET', '/v1/status', undefined, null)).status, 401, 'no token');
  const wrong = await d.api('POST', '/v1/search', { query: 'x' }, 'not-the-token');
  t.equal(wrong.status, 401, 'wrong token');
  t.equal(wrong.body.error.reason, 'unauthorized');
  t.equal((await d.api('GET', '/healthz', undefined, null)).status, 200);

  const bad = await d.api('POST', '/v1/search', { query: '', k: 0 });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.reason, 'bad_request');
  t.match(bad.body.error.message, /query/);

  const m = await d.api('GET', '/metrics', undefined, null);
  t.equal(m.status, 200);
  const text = String(m.body);
  for (const name of [
    'memvault_files_indexed_total',
    'memvault_chunks_indexed_total',
    'memvault_embeddings_computed_total',
    'memvault_embed_batch_size',
    'memvault_mailbox_depth',
    'memvault_index_lag_seconds',
    'memvault_gateway_auth_failures_total 2',
  ])
    t.ok(text.includes(name), `metrics include ${name}`);
});
