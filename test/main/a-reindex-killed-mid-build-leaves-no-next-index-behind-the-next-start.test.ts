// A `memvault reindex` killed mid-build (kill -9) left `<data dir>/index.next.sqlite` and its WAL, as big as the
// index, until the next reindex. The daemon's start now removes a leftover no live reindex is building and logs
// `index_next_removed` with the files; a direct reindex's start says so too. A reindex holds a claim on the file
// (index.next.owner, its pid) from its build to its swap: a start leaves a claimed file alone, and a second reindex
// refuses (`reindex_running`) rather than delete the file under the first.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import t from 'tap';
import type { Config } from '../../config/load.js';
import { Daemon } from '../../main/daemon.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { makeVault, testConfig, within } from '../helpers/daemon.js';
import { BIN, memvault as cli } from '../helpers/run-cli.js';

const files: Record<string, string> = {};
for (let i = 0; i < 20; i++) files[`Projects/p${i}.md`] = `# P${i}\n\nThe glaze batch g${i}q fires at cone six.\n`;

function capture(): { log: EventLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) }) as EventLogger;
  log.event = (name, fields = {}, msg) => log.info({ event: name, ...fields }, msg ?? name);
  return { log, lines };
}

const leftovers = (cfg: Config) =>
  readdirSync(cfg.data_dir)
    .filter((f) => f.startsWith('index.next.'))
    .sort();

/** `memvault reindex` in its own process, killed with SIGKILL the moment its index.next.sqlite appears. */
async function reindexKilledMidBuild(cfg: Config): Promise<void> {
  mkdirSync(cfg.data_dir, { recursive: true });
  const appeared = new Promise<void>((resolve) => {
    const w = watch(cfg.data_dir, (_e, name) => {
      if (name === 'index.next.sqlite') {
        w.close();
        resolve();
      }
    });
  });
  const child: ChildProcess = spawn(BIN, ['reindex', '--vault', cfg.vault, '--config', cfg.config_file!], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  await within(appeared, 60_000, 'the reindex to make index.next.sqlite');
  child.kill('SIGKILL');
  await exited;
}

t.test('a start removes what a reindex killed mid-build left, and logs what it removed', { timeout: 180_000 }, async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  await reindexKilledMidBuild(cfg);
  const left = leftovers(cfg);
  t.ok(left.includes('index.next.sqlite'), `the killed reindex left its file (${left.join(', ')})`);

  const { log, lines } = capture();
  const d = new Daemon(cfg, { mode: 'serve', log });
  await d.start();
  t.teardown(() => d.stop('test done', 0));
  t.same(leftovers(cfg), [], 'the start removed index.next.sqlite, its WAL and the dead claim');
  const removed = lines.find((l) => l.event === 'index_next_removed');
  t.ok(removed, 'the start logged index_next_removed');
  t.same(
    ((removed?.files ?? []) as string[]).map((f) => path.basename(f)).sort(),
    left.filter((f) => f !== 'index.next.owner'),
    'naming every file it removed',
  );
});

t.test('a direct reindex after a killed one says what it removed, and rebuilds', { timeout: 180_000 }, async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  await reindexKilledMidBuild(cfg);
  t.ok(existsSync(path.join(cfg.data_dir, 'index.next.sqlite')));
  const r = await cli(['reindex', '--vault', v.dir, '--config', cfg.config_file!]);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /"event":"index_next_removed".*"msg":"removed index\.next\.sqlite[^"]*, left by a reindex that did not finish/);
  t.match(r.stdout, /rebuilt the index \(20 notes/);
  t.same(leftovers(cfg), []);
});

t.test('a file a live reindex holds the claim on is kept by a start, and a second reindex refuses', { timeout: 180_000 }, async (t) => {
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  mkdirSync(cfg.data_dir, { recursive: true });
  // a live process holding the claim, as a `memvault reindex` still building does
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  t.teardown(() => holder.kill('SIGKILL'));
  const next = path.join(cfg.data_dir, 'index.next.sqlite');
  writeFileSync(path.join(cfg.data_dir, 'index.next.owner'), `${holder.pid}\n`);
  writeFileSync(next, 'being built');

  const second = await cli(['reindex', '--vault', v.dir, '--config', cfg.config_file!]);
  t.equal(second.code, 1);
  t.equal(second.stderr, `memvault: reindex_running: a reindex (pid ${holder.pid}) is building ${next}; wait for it to finish\n`);

  const { log, lines } = capture();
  const d = new Daemon(cfg, { mode: 'serve', log });
  await d.start();
  t.teardown(() => d.stop('test done', 0));
  t.ok(existsSync(next), 'the live build’s file is kept');
  t.match(
    lines.find((l) => l.event === 'index_next_kept'),
    { pid: holder.pid },
  );
  t.notOk(
    lines.some((l) => l.event === 'index_next_removed'),
    'nothing removed',
  );
});
