// recorded_at comes from git history: in a real repository where a fact line was committed long ago (dates faked
// with GIT_AUTHOR_DATE/GIT_COMMITTER_DATE), and the note renamed since, a fresh index and a reindex (through the
// daemon, and `memvault reindex` with none running) all record the author time of the commit that brought the line in
// (a note added once and never changed: read from the log, no blame); a line not committed yet gets the index time; a
// restart over unchanged notes asks git nothing.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, type Running, startDaemon, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

function gitAt(dir: string, when: { author: string; committer: string } | null, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.org',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.org',
      ...(when ? { GIT_AUTHOR_DATE: when.author, GIT_COMMITTER_DATE: when.committer } : {}),
    },
  });
}

const timeline = async (d: Running): Promise<Record<string, string>> => {
  const r = await d.tool('memory_timeline', { entity: 'Ada Lovelace' });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const out: Record<string, string> = {};
  for (const f of r.body.facts as Array<{ predicate: string; recorded_at: string; invalidated_at: string | null }>)
    if (f.invalidated_at === null) out[f.predicate] = f.recorded_at;
  return out;
};

const blames = async (d: Running, outcome: string): Promise<number> => {
  const text = String((await d.api('GET', '/metrics')).body);
  return Number(new RegExp(`memvault_fact_blames_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
};

t.test('a fact line committed long ago is recorded at its commit’s author time, after a fresh index and after reindex', async (t) => {
  const v = makeVault({
    'People/Ada.md': '# Ada\n\nMathematician.\n\n## Facts\n- works_at:: [[Analytical Engine Company]]\n',
    'Projects/Engine.md': '# Engine\n\nNo facts here.\n',
    // added once and never changed: dated from the repository's log, without a blame
    'People/Charles.md': '# Charles\n\n- knows:: [[Ada Lovelace]]\n',
  });
  t.teardown(() => v.cleanup());
  gitAt(v.dir, null, 'init', '-q', '-b', 'main');
  gitAt(v.dir, null, 'add', '-A');
  // author and committer times differ: the author time is the one recorded (a rebase keeps it)
  gitAt(v.dir, { author: '2019-03-04T05:06:07Z', committer: '2020-01-01T00:00:00Z' }, 'commit', '-q', '-m', 'Ada');
  appendFileSync(path.join(v.dir, 'People/Ada.md'), '- lives_in:: London\n');
  gitAt(v.dir, null, 'add', '-A');
  gitAt(v.dir, { author: '2021-07-08T09:10:11Z', committer: '2021-07-08T09:10:11Z' }, 'commit', '-q', '-m', 'moved');
  // renamed since: blame follows the note to its old name
  gitAt(v.dir, null, 'mv', 'People/Ada.md', 'People/Ada Lovelace.md');
  gitAt(v.dir, { author: '2022-02-02T02:02:02Z', committer: '2022-02-02T02:02:02Z' }, 'commit', '-q', '-m', 'full name');
  // not committed yet: the index time
  appendFileSync(path.join(v.dir, 'People/Ada Lovelace.md'), '- has_role:: analyst\n');

  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 200\n');
  const t0 = Date.now();
  let d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();

  const first = await timeline(d);
  t.equal(first.works_at, '2019-03-04T05:06:07.000Z', 'the first commit’s author time');
  t.equal(first.lives_in, '2021-07-08T09:10:11.000Z', 'the second line’s own commit');
  t.ok(Date.parse(first.has_role!) >= t0 - 1000, `an uncommitted line: the index time (${first.has_role})`);
  t.equal(first.knows, '2019-03-04T05:06:07.000Z', 'a note added once and never changed: the adding commit’s author time');
  t.equal(await blames(d, 'stamped'), 1, 'one blame: the note with several commits');
  t.equal(await blames(d, 'stamped_from_log'), 1, 'the note added once is dated from the log');

  const r = await d.api('POST', '/v1/reindex', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  const again = await timeline(d);
  t.equal(again.works_at, '2019-03-04T05:06:07.000Z', 'a reindex does not reset it');
  t.equal(again.lives_in, '2021-07-08T09:10:11.000Z');
  t.equal(again.knows, '2019-03-04T05:06:07.000Z');
  const now = Date.now();
  t.ok(
    Date.parse(again.has_role!) >= t0 - 1000 && Date.parse(again.has_role!) <= now,
    `the uncommitted line keeps an index time: ${again.has_role} (the daemon started ${new Date(t0).toISOString()}, now ${new Date(now).toISOString()})`,
  );

  // `memvault reindex` with no daemon running (its own one-shot pipeline) gives the same times
  await d.stop();
  const cli = await memvault(['reindex', '--vault', v.dir, '--config', path.join(path.dirname(v.dir), 'memvault.yaml')]);
  t.equal(cli.code, 0, cli.stderr);
  t.match(cli.stdout, /rebuilt the index \(3 notes/);

  // a restart over unchanged notes, and an edit that leaves the facts as they are, ask git nothing
  d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const indexed = d.daemon.nextDone('People/Ada Lovelace.md', 'indexed');
  appendFileSync(path.join(v.dir, 'People/Ada Lovelace.md'), '\nShe wrote the first program.\n');
  await indexed;
  t.equal((await d.search('first program', { mode: 'bm25' })).results[0]?.path, 'People/Ada Lovelace.md', 'the edit is indexed');
  t.equal((await blames(d, 'stamped')) + (await blames(d, 'stamped_from_log')), 0, 'git is not asked about facts the index already has');
  t.same(await timeline(d), again, 'and the recorded times stand, after the offline reindex too');
});
