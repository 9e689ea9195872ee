// vault_undo_last under kill -9: the daemon (its own process) is killed while `git revert` has reverted the work tree
// and git's index but not yet committed (its editor step held by a `git` wrapper), git with it. After the restart the
// undo happened fully or not at all: HEAD, the index and the work tree agree, no revert is left in progress, and the
// next undo works.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { afterRestart, gitOut, powerCut, rig } from './kill9-write-paths.js';
import { until } from './lib/daemon-process.js';

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

t.test('an undo of an older forget killed between its append-undo write and its commit did not happen', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/seed.md': '# Seed\n\nA note.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  const forgetOwn = async (agent: string, content: string) => {
    const f = await r.d.tool('memory_remember', { content, wait_indexed: true }, agent);
    t.equal(f.status, 200, JSON.stringify(f.body));
    const g = await r.d.tool('memory_forget', { fact_id: f.body.fact_id }, agent);
    t.equal(g.status, 200, JSON.stringify(g.body));
  };
  await forgetOwn('alice', 'Alice lives in Berlin with her marmoset');
  await forgetOwn('bob', 'Bob keeps a pangolin named Kiwi');
  const before = gitOut(r.v.dir, 'rev-parse', 'HEAD').trim();
  const tombsBefore = readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8');

  // alice's forget is not the newest change to the tombstones: git revert conflicts, the lines are taken out by text
  r.git!.hold('commit');
  const undo = r.d.tool('vault_undo_last', { only_mine: true }, 'alice').catch((err: Error) => err);
  const pids = await r.git!.held();
  t.not(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), tombsBefore, 'the kill lands with the file changed');
  await powerCut(r, pids);
  t.ok((await undo) instanceof Error, 'the undo was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'clean after the restart');
  const since = gitOut(r.v.dir, 'log', '--format=%s', `${before}..HEAD`).split('\n').filter(Boolean);
  t.same(since, [], 'the undo did not happen, and nothing was committed as a person’s edit');
  t.equal(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), tombsBefore, 'the tombstones as they were');
  const again = await r.d.tool('vault_undo_last', { only_mine: true }, 'alice');
  t.equal(again.status, 200, `the undo sent again works once: ${JSON.stringify(again.body)}`);
  t.notMatch(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), /marmoset/, 'alice’s forget is undone');
  t.match(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), /pangolin/, 'bob’s stays');
});

t.test('an undo killed after git revert conflicted, before its abort, did not happen', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/seed.md': '# Seed\n\nA note.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  for (const [agent, content] of [
    ['alice', 'Alice lives in Berlin with her marmoset'],
    ['bob', 'Bob keeps a pangolin named Kiwi'],
  ] as const) {
    const f = await r.d.tool('memory_remember', { content, wait_indexed: true }, agent);
    t.equal(f.status, 200, JSON.stringify(f.body));
    t.equal((await r.d.tool('memory_forget', { fact_id: f.body.fact_id }, agent)).status, 200);
  }
  const before = gitOut(r.v.dir, 'rev-parse', 'HEAD').trim();
  const tombsBefore = readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8');

  r.git!.hold('--abort'); // git revert conflicts on the tombstones file; the kill lands before `git revert --abort`
  const undo = r.d.tool('vault_undo_last', { only_mine: true }, 'alice').catch((err: Error) => err);
  const pids = await r.git!.held();
  t.match(gitOut(r.v.dir, 'status', '--porcelain'), /^(UD|DU|UU) Memory\/tombstones\.jsonl$/m, 'the kill lands mid-conflict');
  await powerCut(r, pids);
  t.ok((await undo) instanceof Error, 'the undo was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'clean after the restart: no revert in progress, no conflict left');
  t.same(gitOut(r.v.dir, 'log', '--format=%s', `${before}..HEAD`).split('\n').filter(Boolean), [], 'no commit since');
  t.equal(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), tombsBefore, 'the tombstones as they were');
  const again = await r.d.tool('vault_undo_last', { only_mine: true }, 'alice');
  t.equal(again.status, 200, `the undo sent again works once: ${JSON.stringify(again.body)}`);
  t.notMatch(readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8'), /marmoset/, 'alice’s forget is undone');
});

t.test('a note a person edited and staged after an undo was cut off keeps the person’s text', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/plan.md': '# Plan\n\nThe first version.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  const w = await r.d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n\nThe second version.\n' }, 'alice');
  t.equal(w.status, 200, JSON.stringify(w.body));
  r.git!.hold('revert');
  const undo = r.d.tool('vault_undo_last', {}, 'alice').catch((err: Error) => err);
  await powerCut(r, await r.git!.held());
  await undo;
  // while the daemon is down, the person writes the note and stages it
  writeFileSync(path.join(r.v.dir, 'Inbox/plan.md'), '# Plan\n\nThe person’s own version.\n');
  gitOut(r.v.dir, 'add', 'Inbox/plan.md');

  await r.d.start();
  await r.d.caughtUp();
  await until('the person’s edit to be committed', 30_000, async () =>
    gitOut(r.v.dir, 'status', '--porcelain') === '' ? true : undefined,
  );
  t.same(await afterRestart(r), [], 'clean after the restart');
  t.match(readFileSync(path.join(r.v.dir, 'Inbox/plan.md'), 'utf8'), /person’s own version/, 'the person’s text is kept');
  t.match(gitOut(r.v.dir, 'show', 'HEAD:Inbox/plan.md'), /person’s own version/, 'and committed');
});
