// A note whose name, or a folder's on its path, starts with '.' is hidden: Obsidian does not show it, and agents may
// not read or write it (the path rules). So it is not indexed either, at start or when made later: search never
// answers with a note vault_read would refuse.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

t.test('hidden notes are neither indexed nor listed, at start or made later', async (t) => {
  const { v, d } = await daemonOn(t, {
    'Inbox/.draft.md': '# Draft\n\nquokka in a hidden note\n',
    '.drafts/plan.md': '# Plan\n\nquokka in a hidden folder\n',
    'Inbox/seen.md': '# Seen\n\nquokka in plain sight\n',
  });
  const found = async () => (await d.search('quokka', { mode: 'bm25', k: 10 })).results.map((h: { path: string }) => h.path);
  t.same(await found(), ['Inbox/seen.md'], 'only the visible note at start');

  const after = d.daemon.nextDone('Inbox/after.md', 'indexed');
  v.write('Inbox/.later.md', '# Later\n\nquokka written later, hidden\n');
  v.write('Inbox/after.md', '# After\n\nquokka written later, visible\n');
  // the hidden note's event comes with or before after.md's: once that is indexed, it would be pending or done
  await after;
  await d.daemon.whenCaughtUp();
  t.same((await found()).sort(), ['Inbox/after.md', 'Inbox/seen.md'], 'nor one made while it runs');

  const list = await d.tool('vault_list', { folder: 'Inbox' });
  t.equal(list.status, 200);
  t.notOk(JSON.stringify(list.body).includes('.draft.md'), 'vault_list does not show it');
  t.equal((await d.tool('vault_read', { path: 'Inbox/.draft.md' })).body.error.reason, 'path_escape', 'and reading it stays refused');
});
