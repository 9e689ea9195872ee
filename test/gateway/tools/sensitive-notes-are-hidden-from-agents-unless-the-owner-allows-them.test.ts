// Sensitive notes (`sensitive: true`, `memvault: local-only`) are not shown to agents — not read, not linked, not
// searched — unless the vault owner sets `writes.agents_may_read_sensitive: true`.
import t from 'tap';
import { call, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

const FILES = {
  'Inbox/Plain.md': '# Plain\n\nnothing secret here\n',
  'Inbox/Diary.md': '---\nsensitive: true\n---\n# Diary\n\nprivate heron thoughts\n',
  'Inbox/Local.md': '---\nmemvault: local-only\n---\n# Local\n\nabout [[Plain]]\n',
};

t.test('by default agents get `sensitive` refusals and never the content', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  for (const p of ['Inbox/Diary.md', 'Inbox/Local.md']) {
    const r = await call(client, 'vault_read', { path: p });
    t.match(
      r.body,
      { error: { reason: 'sensitive', message: /writes\.agents_may_read_sensitive: true/ } },
      `${p} is refused, saying how to allow it`,
    );
    t.notMatch(r.text, /heron|about/, 'no content leaks into the message');
  }
  t.equal((await s.d.api('POST', '/v1/tools/vault_read', { path: 'Inbox/Diary.md' })).status, 403);
  t.match(
    (await call(client, 'memory_search', { query: 'heron', filters: { include_sensitive: true } })).body,
    { error: { reason: 'sensitive' } },
    'agents cannot opt into sensitive hits',
  );
  t.same(
    (await call(client, 'memory_search', { query: 'heron thoughts', mode: 'bm25' })).body.results,
    [],
    'sensitive notes stay out of search',
  );
  t.match((await call(client, 'vault_link', { path: 'Inbox/Local.md' })).body, { error: { reason: 'sensitive' } });
  t.same(
    (await call(client, 'vault_link', { path: 'Inbox/Plain.md' })).body.backlinks,
    [],
    'a backlink from a sensitive note is not shown',
  );
  t.same(
    (await call(client, 'vault_list', { folder: 'Inbox' })).body.notes.map((n: { path: string }) => n.path),
    ['Inbox/Diary.md', 'Inbox/Local.md', 'Inbox/Plain.md'],
    'names are listed (a listing shows no content)',
  );
});

t.test('with writes.agents_may_read_sensitive: true the owner lets agents see them', async (t) => {
  const s = await startToolDaemon(FILES, { extra: '  agents_may_read_sensitive: true' });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  const r = await call(client, 'vault_read', { path: 'Inbox/Diary.md' });
  t.match(r.body, { content: /private heron thoughts/, sensitive: true, frontmatter: { sensitive: true } });
  const hits = await call(client, 'memory_search', { query: 'heron thoughts', mode: 'bm25', filters: { include_sensitive: true } });
  t.match(hits.body.results, [{ path: 'Inbox/Diary.md', sensitive: true }]);
  t.match((await call(client, 'vault_link', { path: 'Inbox/Plain.md' })).body.backlinks, [{ path: 'Inbox/Local.md' }]);
});
