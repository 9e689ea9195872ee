// `make build` bundles each thread's and process's entry into dist/bundle/ (bin/bundle.ts); the daemon starts from a
// bundle only while it is no older than tsc's last compile, so a stale bundle never runs, and from the plain module
// otherwise. Then the real bundles: every actor, the embedding pool's task and the git spawner resolve to their bundle
// after `make build`, and a daemon started from them indexes, searches and commits a write.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ACTORS } from '../../supervisors/actors.js';
import { BUNDLE_DIR, DIST_DIR, entry, PACKAGE_ROOT, pickEntry } from '../../supervisors/runtime/code-files.js';
import { ENTRIES } from '../../bin/bundle.js';
import { daemonOn } from '../helpers/daemon.js';

t.test('a bundle is picked only while it is no older than tsc’s last compile', async (t) => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'memvault-dist-'));
  t.teardown(() => rmSync(dist, { recursive: true, force: true }));
  const rel = path.join('actors', 'x', 'actor.js');
  const plain = path.join(dist, rel);
  const bundled = path.join(dist, 'bundle', rel);
  mkdirSync(path.dirname(plain), { recursive: true });
  writeFileSync(plain, '');
  t.equal(pickEntry(dist, rel), plain, 'no bundle: the plain module');
  mkdirSync(path.dirname(bundled), { recursive: true });
  writeFileSync(bundled, '');
  const info = path.join(dist, '.tsbuildinfo');
  writeFileSync(info, '');
  utimesSync(info, 1_000, 1_000);
  utimesSync(bundled, 2_000, 2_000);
  t.equal(pickEntry(dist, rel), bundled, 'a bundle newer than the compile');
  t.equal(pickEntry(dist, path.join('bundle', rel)), bundled, 'named by its bundle path too');
  t.equal(pickEntry(dist, rel, { MEMVAULT_BUNDLES: '0' }), plain, 'MEMVAULT_BUNDLES=0: the plain module');
  utimesSync(info, 3_000, 3_000);
  t.equal(pickEntry(dist, rel), plain, 'tsc compiled after the bundle: the plain module, never the stale bundle');
  t.equal(pickEntry(dist, path.join('bundle', rel)), plain, 'even when asked for the bundle by its path');
});

t.test('the package root is found from wherever the code runs', async (t) => {
  t.equal(PACKAGE_ROOT, path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'));
  t.equal(DIST_DIR, path.join(PACKAGE_ROOT, 'dist'));
});

t.test('after make build every entry starts from its bundle, and a daemon runs on them', async (t) => {
  const actorEntries = Object.values(ACTORS).map((a) => path.posix.join('supervisors', a.file));
  t.same(
    ENTRIES.filter((e) => e.startsWith('actors/') && e.endsWith('/actor.js')).sort(),
    actorEntries.map((e) => path.posix.normalize(e)).sort(),
    'every actor of the table is bundled',
  );
  for (const e of ENTRIES)
    t.equal(fileURLToPath(entry(e)), path.join(BUNDLE_DIR, e), `${e} starts from dist/bundle (run make build first)`);
  const { d, v } = await daemonOn(t, { 'Inbox/otters.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  const r = await d.search('sea otters sleeping', { mode: 'hybrid', k: 1 });
  t.equal(r.results[0]?.path, 'Inbox/otters.md', 'indexed and embedded by bundled threads');
  t.equal(r.mode, 'hybrid', 'answered in hybrid mode: the bundled embedder gave the query its vector');
  const w = await d.tool('vault_write', { path: 'Inbox/from-bundle.md', content: '# From the bundle\n\nwritten\n' }, 'tester');
  t.equal(w.status, 200, 'a write through the bundled git writer and its spawner');
  const log = execFileSync('git', ['-C', v.dir, 'log', '--format=%(trailers:key=Memvault-Agent,valueonly)', '--', 'Inbox/from-bundle.md'], {
    encoding: 'utf8',
  });
  t.match(log, /tester/, 'committed as the agent');
});
