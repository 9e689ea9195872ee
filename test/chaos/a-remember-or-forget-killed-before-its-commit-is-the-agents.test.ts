// memory_remember and memory_forget under kill -9 between the file change and its commit: a `git` on the daemon's
// PATH holds `hash-object` (the first step of the agent commit), the daemon and the held git are killed there, and the
// daemon started again. The unanswered change is then either absent or committed once as the agent's remember or
// forget (the intent journal), never as a person's edit; git status is clean and doctor ok.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { afterRestart, gitOut, powerCut, rig } from './kill9-write-paths.js';

const subjects = (dir: string): string[] => gitOut(dir, 'log', '--format=%s').split('\n').filter(Boolean);

t.test('a remember killed before its commit is committed once as a remember', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/seed.md': '# Seed\n\nA note.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  r.git!.hold('hash-object');
  const rem = r.d.tool('memory_remember', { content: 'Bob keeps a pangolin named Kiwi' }, 'alice').catch((e: Error) => e);
  const pids = await r.git!.held();
  await powerCut(r, pids);
  t.ok((await rem) instanceof Error, 'the remember was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'git status clean, doctor ok');
  const s = subjects(r.v.dir);
  t.equal(s.filter((x) => x.startsWith('memvault: human')).length, 0, `nothing recorded as a person's edit: ${JSON.stringify(s)}`);
  const log = gitOut(r.v.dir, 'ls-files', 'Memory/Log').trim();
  const n = log === '' ? 0 : readFileSync(path.join(r.v.dir, log), 'utf8').split('pangolin').length - 1;
  t.ok(n <= 1, `the fact is in the log at most once (${n})`);
  t.equal(s.filter((x) => x.startsWith('memvault: remember')).length, n, 'and committed as a remember if there');
  const found = JSON.stringify((await r.d.api('POST', '/v1/search', { query: 'pangolin Kiwi', mode: 'bm25', k: 5 })).body);
  t.equal(found.includes('pangolin'), n === 1, 'search agrees with the log');
  const undo = await r.d.tool('vault_undo_last', {}, 'alice');
  t.equal(undo.status === 200, false, `undo passes over a remember: ${JSON.stringify(undo.body)}`);
});

t.test('a forget killed before its commit is committed once as a forget', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, { 'Inbox/seed.md': '# Seed\n\nA note.\n' }, { heldGit: true });
  await r.d.start();
  await r.d.caughtUp();
  const a = await r.d.tool('memory_remember', { content: 'Alice lives in Berlin with her marmoset', wait_indexed: true }, 'alice');
  t.equal(a.status, 200, JSON.stringify(a.body));
  await r.d.kill9(); // the next start's commit pipes are new, so the hold applies to them
  await r.d.start();
  await r.d.caughtUp();
  r.git!.hold('hash-object');
  const fo = r.d.tool('memory_forget', { fact_id: a.body.fact_id }, 'alice').catch((e: Error) => e);
  const pids = await r.git!.held();
  await powerCut(r, pids);
  t.ok((await fo) instanceof Error, 'the forget was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(await afterRestart(r), [], 'git status clean, doctor ok');
  const s = subjects(r.v.dir);
  t.equal(s.filter((x) => x.startsWith('memvault: human')).length, 0, `nothing recorded as a person's edit: ${JSON.stringify(s)}`);
  let tombs: string[] = [];
  try {
    tombs = readFileSync(path.join(r.v.dir, 'Memory/tombstones.jsonl'), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    // not there: the forget did not happen
  }
  t.ok(tombs.length <= 1, `at most one tombstone (${tombs.length})`);
  t.equal(s.filter((x) => x.startsWith('memvault: forget')).length, tombs.length, 'committed as a forget if there');
  const found = JSON.stringify((await r.d.api('POST', '/v1/search', { query: 'marmoset Berlin', mode: 'bm25', k: 5 })).body);
  t.equal(found.includes('marmoset'), tombs.length === 0, 'search agrees with the tombstones');
});
