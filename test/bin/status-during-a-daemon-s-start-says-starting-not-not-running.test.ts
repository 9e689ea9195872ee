// Between a start's claim on the data dir (daemon.starting, its pid) and daemon.json — loading the model, reconciling
// a large vault — `memvault status` said `daemon: not running`, and an operator started another (refused) or went
// looking for a crash. It says the daemon is starting, with its pid; a claim whose process is gone is not running.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

t.test("status during a daemon's start says starting, not not running", async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const conf = ['--vault', v.dir, '--config', cfg.config_file!];
  mkdirSync(cfg.data_dir, { recursive: true });
  const claim = path.join(cfg.data_dir, 'daemon.starting');
  writeFileSync(claim, `${process.pid}\n`); // a live process holds the claim: a start under way

  const r = await memvault(['status', ...conf]);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, `\ndaemon:   starting (pid ${process.pid}); the index below is as it was`);
  const j = await memvault(['status', '--json', ...conf]);
  t.match(JSON.parse(j.stdout), { daemon: null, daemon_starting: { pid: process.pid } });

  writeFileSync(claim, '999999999\n'); // a start killed while starting
  const gone = await memvault(['status', ...conf]);
  t.match(gone.stdout, '\ndaemon:   not running\n');
  t.notOk('daemon_starting' in JSON.parse((await memvault(['status', '--json', ...conf])).stdout));
});
