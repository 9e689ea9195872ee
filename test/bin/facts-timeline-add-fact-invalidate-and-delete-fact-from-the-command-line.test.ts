// The knowledge commands as a user runs them against a running daemon: `facts --at` answers the past, `add-fact`
// supersedes, `timeline` lists ended facts too, `invalidate` and `delete-fact` edit the line (each a commit).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';
import { EXAMPLE_VAULT, git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

t.test('facts, timeline, add-fact, invalidate and delete-fact', async (t) => {
  const v = makeVault({ 'People/Maya Chen.md': readFileSync(path.join(EXAMPLE_VAULT, 'People/Maya Chen.md'), 'utf8') });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  enabled: true\n');
  const conf = ['--config', cfg.config_file!, '--vault', v.dir];
  const d = await startDaemon(cfg);
  writeDaemonInfo(cfg, { pid: process.pid, url: d.url, started_at: new Date().toISOString() });
  t.teardown(async () => {
    removeDaemonInfo(cfg.data_dir, process.pid);
    await d.stop();
  });
  await d.daemon.whenCaughtUp();
  const note = () => readFileSync(path.join(v.dir, 'People/Maya Chen.md'), 'utf8');

  const past = await memvault(['facts', ...conf, '--entity', 'Maya Chen', '--predicate', 'works_at', '--at', '2025-06-01']);
  t.equal(past.code, 0, past.stderr);
  t.match(past.stdout, /Maya Chen · works_at · Rotterdam payments company {2}\(until 2026-03-02\) {2}People\/Maya Chen\.md:\d+/);
  t.notMatch(past.stdout, 'Ledgerline');

  const commits = Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim());
  const add = await memvault(['add-fact', ...conf, 'Maya Chen', 'works_at', 'Northwind', 'Labs', '--from', '2026-12-01']);
  t.equal(add.code, 0, add.stderr);
  t.match(add.stdout, /^superseded People\/Maya Chen\.md:\d+ \(fact \d+\)\ncommit [0-9a-f]{40}/);
  t.match(note(), '- works_at:: Northwind Labs [from:: 2026-12-01]');
  t.equal(Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim()), commits + 1);

  const tl = JSON.parse((await memvault(['timeline', ...conf, 'Maya Chen', '--json'])).stdout) as {
    facts: Array<{ id: number; predicate: string; object: string; valid_until: string | null }>;
  };
  t.match(
    tl.facts.filter((f) => f.predicate === 'works_at').map((f) => [f.object, f.valid_until]),
    [
      ['Rotterdam payments company', '2026-03-02'],
      ['Ledgerline', null],
      ['Ledgerline', '2026-12-01'],
      ['Northwind Labs', null],
    ],
    'ended facts are listed, and the line as it was before the supersession',
  );
  const northwind = tl.facts.find((f) => f.object === 'Northwind Labs')!;
  const inv = await memvault(['invalidate', ...conf, String(northwind.id), '--at', '2026-12-24']);
  t.equal(inv.code, 0, inv.stderr);
  t.match(note(), '- works_at:: Northwind Labs [from:: 2026-12-01] [until:: 2026-12-24]');

  const prefers = JSON.parse((await memvault(['facts', ...conf, '--entity', 'Maya Chen', '--predicate', 'prefers', '--json'])).stdout)
    .facts[0] as { id: number };
  const del = await memvault(['delete-fact', ...conf, String(prefers.id)]);
  t.equal(del.code, 0, del.stderr);
  t.notMatch(note(), 'prefers::');
  const again = await memvault(['delete-fact', ...conf, String(prefers.id)]);
  t.equal(again.code, 1);
  t.match(again.stderr, /not_found: no current fact/);
  t.equal((await memvault(['invalidate', ...conf, 'abc'])).code, 2, 'a usage error');
  const words = await memvault(['timeline', ...conf, 'add-fact', 'Priya', 'likes', 'tea']);
  t.equal(words.code, 2, 'timeline with several words is a usage error, not "no facts"');
  t.match(words.stderr, /timeline takes one ENTITY, got 4 words/);
});
