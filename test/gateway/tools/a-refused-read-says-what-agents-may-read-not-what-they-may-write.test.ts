// The read tools check a path with the write path's rules, and used to answer with the write side's words: vault_read
// of an attachment or a folder said "agents may only write files ending in '.md'; rename it to 'team.md'", and of
// `.git/config` "names starting with '.' are not writable". A refused read keeps its reason and says what agents may
// read; a refused write still says what to rename.
import t from 'tap';
import { call, mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

t.test('a refused read says what agents may read, a refused write what to rename', async (t) => {
  const s = await startToolDaemon({
    'Inbox/Plain.md': '# Plain\n',
    'Calendar/team.ics': 'BEGIN:VCALENDAR\nEND:VCALENDAR\n',
    '.obsidian/app.json': '{}\n',
  });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => client.close());

  for (const tool of ['vault_read', 'vault_link']) {
    for (const [p, reason, said] of [
      ['Calendar/team.ics', 'not_markdown', /'team\.ics' is not a markdown note: agents read only notes, files ending in '\.md'/],
      ['Inbox', 'not_markdown', /'Inbox' is not a markdown note: agents read only notes.*vault_list shows a folder's notes/],
      ['.git/config', 'path_escape', /'\.git' is hidden: agents may not read or write names starting with '\.'/],
      ['.obsidian/app.json', 'path_escape', /'\.obsidian' is hidden: agents may not read or write/],
    ] as const) {
      const r = await call(client, tool, { path: p });
      t.match(r, { isError: true, body: { error: { reason, message: said } } }, `${tool} ${p}: ${reason}, said for a read`);
      t.notMatch(r.body.error.message, /writable|may only write|rename/, `${tool} ${p}: no advice meant for writes`);
    }
  }
  const folder = await call(client, 'vault_list', { folder: '.git' });
  t.match(folder.body, { error: { reason: 'path_escape', message: /'\.git' is hidden: agents may not read or write/ } });

  const w = await call(client, 'vault_write', { path: 'Calendar/team.ics', content: 'x' });
  t.match(w.body, { error: { reason: 'not_markdown', message: /agents may only write files ending in '\.md'; rename it to 'team\.md'/ } });
  const h = await call(client, 'vault_write', { path: '.obsidian/x.md', content: 'x' });
  t.match(h.body, { error: { reason: 'path_escape', message: /'\.obsidian' is hidden/ } });
  t.equal(s.writes.seen.length, 0, 'no refused write reached the git writer');
});
