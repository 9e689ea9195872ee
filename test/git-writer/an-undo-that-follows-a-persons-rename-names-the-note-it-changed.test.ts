// An agent edits a note, a person renames it, the agent undoes its edit: `git revert` follows the rename and restores
// the text under the new name. The undo used to answer the reverted commit's path — a note that no longer exists — so
// the agent was told of the wrong note, `wait_indexed` waited for nothing, and the new name's change looked like a
// person's edit. It now names what the undo commit changed.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { git, read, status, vaultWith, write } from './helpers/vault-repo.js';

const LINES = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\n');

t.test('the undo of an edit to a note renamed since names the note under its new name', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'Projects/plan.md': `# Plan\n\n${LINES}\n` });
  write(dir, 'Projects/plan.md', `# Plan\n\n${LINES.replace('row 3', 'row 3 by the agent')}\n`);
  t.ok((await repo.commit(['Projects/plan.md'], { op: 'write', paths: ['Projects/plan.md'], agent: 'claude' })).ok);
  renameSync(join(dir, 'Projects/plan.md'), join(dir, 'Projects/roadmap.md'));
  t.ok((await repo.commitHumanChanges()).ok, 'the person’s rename is committed');

  const u = await repo.undoLast({ byAgent: 'claude' });
  t.match(u, { ok: true, paths: ['Projects/roadmap.md'] });
  t.equal(read(dir, 'Projects/roadmap.md'), `# Plan\n\n${LINES}\n`, 'the edit is undone under the new name');
  t.equal(read(dir, 'Projects/plan.md'), null);
  t.equal(git(dir, 'diff-tree', '-r', '--no-commit-id', '--name-only', 'HEAD').trim(), 'Projects/roadmap.md');
  t.same(status(dir), []);
});

t.test('the undo of a new note still names the note it removed', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'seed.md': 'seed\n' });
  write(dir, 'Inbox/new "quoted" é.md', 'new\n');
  t.ok((await repo.commit(['Inbox/new "quoted" é.md'], { op: 'write', paths: ['Inbox/new "quoted" é.md'], agent: 'claude' })).ok);
  t.match(await repo.undoLast({ byAgent: 'claude' }), { ok: true, paths: ['Inbox/new "quoted" é.md'] });
  t.equal(read(dir, 'Inbox/new "quoted" é.md'), null);
});
