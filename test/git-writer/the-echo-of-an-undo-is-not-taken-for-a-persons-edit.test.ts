// An undo changes notes on disk, and the OS watcher reports that back. The echo used to be weighed at once: arriving
// before the undo had recorded what it left, it counted as a person's edit, and cost a git status and a "nothing to
// commit" pass — by the next undo, which commits pending edits first. It now waits for the undo under way.
import t from 'tap';
import { worktreeChange, counted } from './helpers/worktree-changes.js';
import { daemonOn, git } from '../helpers/daemon.js';
import { gitOnPath } from './helpers/git-on-path.js';

t.test('the echo of an undo that reaches the git writer before the undo ends counts as own', async (t) => {
  // git revert held back after it changed the note: its echo surely comes while the undo is still under way
  gitOnPath(t, { revertHeldMs: 400 });
  const { v, d } = await daemonOn(t, { 'Inbox/plan.md': '# Plan\n' }, 'writes:\n  human_quiet_ms: 50\n');
  // an edit, not a new note: the undo changes the note in place (a removal waits out the watcher's rename window)
  t.equal((await d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n\nrevised\n' }, 'planner')).status, 200);
  await d.daemon.handles.git!.onIdle();
  const before = String((await d.api('GET', '/metrics')).body);

  const echoed = worktreeChange(d, 'Inbox/plan.md');
  t.equal((await d.tool('vault_undo_last', {}, 'planner')).status, 200);
  await echoed;
  await d.daemon.handles.git!.onIdle();
  const after = String((await d.api('GET', '/metrics')).body);
  t.equal(counted(after, 'person'), counted(before, 'person'), 'nothing was queued as a person’s edit');
  t.ok(counted(after, 'own') > counted(before, 'own'), 'the undo came back and was recognised as ours');
  t.equal(git(v.dir, 'status', '--porcelain'), '');
});
