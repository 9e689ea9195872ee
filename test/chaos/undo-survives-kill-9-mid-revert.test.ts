// vault_undo_last under kill -9: the daemon (its own process) is killed while `git revert` has reverted the work tree
// and git's index but not yet committed (its editor step held by a `git` wrapper), git with it. After the restart the
// undo happened fully or not at all: HEAD, the index and the work tree agree, no revert is left in progress, and the
// next undo works.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { afterRestart, gitOut, powerCut, rig } from './kill9-write-paths.js';

t.test('an undo killed mid-revert leaves no half-done revert behind', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/plan.md': '# Plan\n\nThe first version.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  const w = await r.d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n\nThe second version.\n' }, 'alice');
  t.equal(w.status, 200, JSON.stringify(w.body));
  const written = gitOut(r.v.dir, 'rev-parse', 'HEAD').trim();

  r.git!.hold('revert');
  const undo = r.d.tool('vault_undo_last', {}, 'alice').catch((err: Error) => err);
  const pids = await r.git!.held();
  t.not(gitOut(r.v.dir, 'status', '--porcelain'), '', 'the kill lands with the revert in the work tree, uncommitted');
  await powerCut(r, pids);
  t.ok((await undo) instanceof Error, 'the undo was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'clean after the restart');
  const since = gitOut(r.v.dir, 'log', '--format=%s', `${written}..HEAD`).split('\n').filter(Boolean);
  const text = readFileSync(path.join(r.v.dir, 'Inbox/plan.md'), 'utf8');
  t.comment(`after the restart, commits since the write: ${JSON.stringify(since)}`);
  if (since.length === 0) t.match(text, /second version/, 'the undo did not happen: HEAD is the write, the note its text');
  else {
    t.same(since.length, 1, 'the undo happened fully: one commit');
    t.match(since[0], /^memvault: undo/, 'an undo, not a person’s edit');
    t.match(text, /first version/, 'and the note is back');
  }

  const again = await r.d.tool('vault_undo_last', {}, 'alice');
  t.equal(again.status, 200, `the next undo works: ${JSON.stringify(again.body)}`);
  t.same(await afterRestart(r), [], 'clean after the next undo');
});
