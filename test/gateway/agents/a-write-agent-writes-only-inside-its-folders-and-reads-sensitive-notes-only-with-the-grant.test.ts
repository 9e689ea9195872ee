// `--folders` limits where a write credential writes (vault_write, memory_remember): a write elsewhere is refused
// `forbidden` (403) before the disk changes. Sensitive notes are read only by credentials granted `--sensitive`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { call, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { httpCall } from '../../helpers/daemon.js';
import { agent, commits, mcpAs, toolAs } from './helpers.js';

const FILES = {
  'Inbox/Plain.md': '# Plain\n\nnothing secret\n',
  'Inbox/Diary.md': '---\nsensitive: true\n---\n# Diary\n\nprivate heron thoughts\n',
};

t.test('a write agent cannot write outside its folders', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const inboxer = agent(s.cfg.data_dir, 'inboxer', { scope: 'write', folders: ['Inbox', 'Projects/Atlas'] });
  const client = await mcpAs(s.d.url, inboxer);
  t.teardown(() => client.close());

  t.match((await call(client, 'vault_write', { path: 'Inbox/Ok.md', content: '# Ok\n' })).body, { op: 'write', commit: /^[0-9a-f]+$/ });
  t.match((await call(client, 'vault_write', { path: 'Projects/Atlas/Plan.md', content: '# Plan\n' })).body, { op: 'write' });
  const before = commits(s.v.dir).length;
  for (const p of ['Projects/Other.md', 'Projects/Atlas2/x.md', 'People/Ann.md', 'Inboxes/x.md']) {
    const r = await call(client, 'vault_write', { path: p, content: '# No\n' });
    t.match(
      r.body,
      { error: { reason: 'forbidden', message: /outside the folders this credential may write \(Inbox, Projects\/Atlas\)/ } },
      p,
    );
    t.notOk(existsSync(path.join(s.v.dir, p)), `${p} is not on disk`);
  }
  const h = await toolAs(s.d.url, inboxer, 'vault_write', { path: 'People/Ann.md', content: '# No\n' });
  t.equal(h.status, 403);
  t.equal(h.body.error.reason, 'forbidden');
  t.match(await call(client, 'memory_remember', { content: 'the heron nests in May' }), {
    body: { error: { reason: 'forbidden', message: /Memory\/Log/ } },
  });
  t.equal(commits(s.v.dir).length, before, 'no commit for any refused write');

  const memo = agent(s.cfg.data_dir, 'memo', { scope: 'write', folders: ['Memory'] });
  const m = await toolAs(s.d.url, memo, 'memory_remember', { content: 'the heron nests in May' });
  t.equal(m.status, 200, 'a credential granted the memory folder remembers facts');
  t.equal(commits(s.v.dir)[0]!.agent, 'memo');
});

t.test('sensitive notes are read only with --sensitive', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const plain = agent(s.cfg.data_dir, 'plain', { scope: 'write' });
  const trusted = agent(s.cfg.data_dir, 'trusted', { scope: 'read', sensitive: true });

  const r = await toolAs(s.d.url, plain, 'vault_read', { path: 'Inbox/Diary.md' });
  t.equal(r.status, 403);
  t.equal(r.body.error.reason, 'sensitive');
  t.notMatch(JSON.stringify(r.body), /heron/);
  const search = await httpCall(s.d.url, 'POST', '/v1/search', { query: 'heron', filters: { include_sensitive: true } }, { token: plain });
  t.equal(search.status, 403, 'no include_sensitive over /v1/search without the grant');
  const over = await toolAs(s.d.url, plain, 'vault_write', { path: 'Inbox/Diary.md', content: '# mine now\n' });
  t.equal(over.status, 403, 'nor overwriting a sensitive note (its frontmatter would come back merged)');

  const client = await mcpAs(s.d.url, trusted);
  t.teardown(() => client.close());
  t.match((await call(client, 'vault_read', { path: 'Inbox/Diary.md' })).body, { content: /private heron thoughts/, sensitive: true });
  t.match(
    (await call(client, 'memory_search', { query: 'heron thoughts', mode: 'bm25', filters: { include_sensitive: true } })).body.results,
    [{ path: 'Inbox/Diary.md' }],
  );
});
