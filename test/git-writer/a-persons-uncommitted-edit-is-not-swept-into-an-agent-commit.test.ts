// An agent commit records only the agent's paths: a person's unsaved-to-git edits (unstaged, staged, new) stay theirs.
import t from 'tap';
import { git, read, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('unstaged, staged and untracked edits elsewhere stay out of the agent commit and stay in the work tree', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'mine.md': 'mine v1\n', 'staged.md': 'staged v1\n', 'agent.md': 'agent v1\n' });
  write(dir, 'mine.md', 'mine v2 (typing in Obsidian)\n');
  write(dir, 'staged.md', 'staged v2\n');
  git(dir, 'add', 'staged.md');
  write(dir, 'draft.md', 'a brand-new draft\n');

  write(dir, 'agent.md', 'agent v2\n'); // tracked: the one-process path
  const r1 = await repo.commit(['agent.md'], { op: 'write', paths: ['agent.md'], agent: 'claude' });
  write(dir, 'agent-new.md', 'created by the agent\n'); // untracked: add + commit
  const r2 = await repo.commit(['agent-new.md'], { op: 'write', paths: ['agent-new.md'], agent: 'claude' });
  if (!r1.ok || !r2.ok) return t.fail(JSON.stringify([r1, r2]));

  t.same(git(dir, 'show', '--name-only', '--format=', r1.sha).trim().split('\n'), ['agent.md']);
  t.same(git(dir, 'show', '--name-only', '--format=', r2.sha).trim().split('\n'), ['agent-new.md']);
  t.equal(git(dir, 'show', 'HEAD:mine.md'), 'mine v1\n');
  t.equal(git(dir, 'show', 'HEAD:staged.md'), 'staged v1\n');

  t.same(
    status(dir).sort(),
    [' M mine.md', '?? draft.md', 'M  staged.md'],
    'the person’s changes are exactly as they left them, staging included',
  );
  t.equal(read(dir, 'mine.md'), 'mine v2 (typing in Obsidian)\n');
  t.equal(git(dir, 'show', ':staged.md'), 'staged v2\n', 'the staged version is still staged');
});
