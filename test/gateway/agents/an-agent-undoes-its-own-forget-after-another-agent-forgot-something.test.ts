// Forgets append to one file, Memory/tombstones.jsonl. `git revert` of agent A's forget saw agent B's later line next
// to A's and stopped with a conflict, so A could not undo its own forget while B's stood. Now A's lines are taken out
// by text (append-undo.ts): A's fact comes back, B's stays forgotten, and B's line is untouched.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { withoutAppended } from '../../../actors/git-writer/append-undo.js';
import { git } from '../../helpers/daemon.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, toolAs } from './helpers.js';

t.test("agent A undoes its own forget after agent B's; B's forget stands", async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const a = agent(s.cfg.data_dir, 'alpha', { scope: 'write' });
  const b = agent(s.cfg.data_dir, 'beta', { scope: 'write' });
  const url = s.d.url;
  const facts = async (q: string) =>
    (await s.d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.snippet as string);

  const fa = await toolAs(url, a, 'memory_remember', { content: 'Alpha keeps bees on the roof', wait_indexed: true });
  const fb = await toolAs(url, b, 'memory_remember', { content: 'Beta keeps goats in the yard', wait_indexed: true });
  t.equal(fa.status + fb.status, 400);
  const forgetA = await toolAs(url, a, 'memory_forget', { fact_id: fa.body.fact_id });
  const forgetB = await toolAs(url, b, 'memory_forget', { fact_id: fb.body.fact_id });
  t.equal(forgetA.status, 200, JSON.stringify(forgetA.body));
  t.equal(forgetB.status, 200, JSON.stringify(forgetB.body));
  const tombstones = path.join(s.v.dir, 'Memory/tombstones.jsonl');
  const bLine = readFileSync(tombstones, 'utf8').split('\n')[1]!;
  t.match(bLine, /"agent":"beta"/);

  const u = await toolAs(url, a, 'vault_undo_last', { wait_indexed: true });
  t.equal(u.status, 200, JSON.stringify(u.body));
  t.same(u.body.paths, ['Memory/tombstones.jsonl']);
  t.equal(readFileSync(tombstones, 'utf8'), `${bLine}\n`, "only A's line was taken out");
  t.equal(git(s.v.dir, 'log', '-1', '--format=%(trailers:key=Memvault-Reverts,valueonly)').trim(), forgetA.body.commit);
  t.equal(git(s.v.dir, 'status', '--porcelain').trim(), '', 'committed, work tree clean');
  await s.d.daemon.whenCaughtUp();
  t.same(await facts('bees roof'), ['Alpha keeps bees on the roof'], "A's fact is back");
  t.same(await facts('goats yard'), [], "B's stays forgotten");

  // and B's own undo still reverts B's forget the usual way
  const ub = await toolAs(url, b, 'vault_undo_last', { wait_indexed: true });
  t.equal(ub.status, 200, JSON.stringify(ub.body));
  t.equal(readFileSync(tombstones, 'utf8'), '', 'both forgets undone');
});

t.test('an append is taken out only when the commit only appended whole lines that still stand', async (t) => {
  t.equal(withoutAppended('x\n', 'x\na\n', 'x\na\nb\n'), 'x\nb\n');
  t.equal(withoutAppended('', 'a\n', 'a\nb\n'), 'b\n', 'the first line of a new file');
  t.equal(withoutAppended('x\n', 'y\na\n', 'y\na\nb\n'), null, 'the commit changed a line before');
  t.equal(withoutAppended('x', 'xa\n', 'xa\nb\n'), null, 'not whole lines');
  t.equal(withoutAppended('x\n', 'x\na\n', 'x\nA\nb\n'), null, 'its line was edited since');
  t.equal(withoutAppended('x\na\n', 'x\na\nb\n', 'x\nb\nc\n'), 'x\nc\n', 'an earlier line taken out since');
  t.equal(withoutAppended('x\n', 'x\na\n', 'x\na\nb\na\n'), null, 'there twice');
  t.equal(withoutAppended('x\n', 'x\na\n', 'x\nba\n'), null, 'only inside another line');
  t.equal(withoutAppended('x\n', 'x\n', 'x\n'), null, 'nothing appended');
});
