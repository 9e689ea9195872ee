// Resident memory of the whole daemon (all threads) at 13.5k and 100k chunks, and hybrid search latency over HTTP at 100k.
//
// Search latency includes the query embedding, and sits beside bm25-only measured in the same run.
// Run: npx tsc -p tsconfig.json && node dist/bench/daemon-memory.js [--chunks 100000] [--queries 200] [--index-cache DIR]
// Each case runs in its own child process, so one RSS figure never carries another's leftovers:
//   tldr  the 4,612-note corpus with real vectors. RSS right after indexing it comes from the process that built the
//         index (this one, or bench/edit-latency when run-all shares the index); then a daemon restarted on it,
//         after the searches.
//   big   a store of --chunks chunks written directly with IndexWriter by bench/synthetic-store.ts, as search-latency
//         builds its stores (in another child: the build's own memory must not count): text = tldr and Rust book paragraphs in varied copies, vectors = SYNTHETIC clustered unit
//         vectors recorded as the use-lite model's, so the daemon's hybrid search runs on them as on real ones (the
//         vector pass's latency does not depend on what the vectors mean). Documents are stored as source_type 'bench',
//         not 'vault', so the watcher's reconcile of the (empty) vault leaves them alone.
// Latency: 10-word queries cut from corpus sentences, hybrid then bm25 for each (interleaved, same load), after a
// warm-up; p50/p99 measured by the client over keep-alive HTTP. Reference in the same process: embedding the query
// alone with a single-threaded session, as the gateway does. Prints a table, writes bench/results/daemon-memory.json.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSyntheticStore, loadParagraphs } from './synthetic-store.js';
import { openIndex } from '../actors/store-writer/schema.js';
import {
  BenchRoot,
  configFor,
  CORPORA,
  corpusQueries,
  intArg,
  machine,
  mb,
  newDaemon,
  pct,
  printTable,
  SearchClient,
  strArg,
  tldrIndex,
  writeResults,
} from './harness.js';

const WARMUP = 20;

/**
 * onnxruntime is imported only where it is used, after the daemon's figures: loaded on the main thread, as the daemon
 * itself never does, it would add to the RSS being measured.
 */
const loadProvider = async () => (await import('../actors/embedder/use-lite/provider.js')).createUseLiteProvider;

async function buildStore(file: string, n: number, cacheDir: string): Promise<void> {
  const createUseLiteProvider = await loadProvider();
  // the real model's identity, so the gateway treats the synthetic vectors as its own
  const p = await createUseLiteProvider({ cacheDir });
  const model = p.info;
  await p.close();
  buildSyntheticStore(file, n, model, loadParagraphs());
}

// ---- measuring (in a child) ----

interface Latency {
  p50: number;
  p99: number;
  mean: number;
}
const lat = (xs: number[]): Latency => ({ p50: pct(xs, 50), p99: pct(xs, 99), mean: xs.reduce((a, b) => a + b, 0) / xs.length });

interface CaseResult {
  case: 'tldr' | 'big';
  chunks: number;
  rssBaselineMB: number;
  rssAfterIndexMB: number | null;
  indexBuiltBy: string | null;
  rssServingMB: number;
  rssAfterSearchesMB: number;
  peakRssMB: number;
  queries: number;
  hybridHttp: Latency;
  bm25Http: Latency;
  hybridServerTook: Latency;
  degraded: number;
  queryEmbedding: Latency;
  /** the actor threads the daemon ran (the embedder adds its pool threads) */
  actors: string[];
  poolThreads: number;
}

async function measure(
  kind: CaseResult['case'],
  root: BenchRoot,
  t: { vault: string; dataDir: string },
  queries: string[],
  extra: Pick<CaseResult, 'rssAfterIndexMB' | 'indexBuiltBy' | 'rssBaselineMB'>,
): Promise<CaseResult> {
  const cfg = configFor(root, t);
  const d = newDaemon(cfg, 'serve');
  await d.start();
  await d.whenCaughtUp();
  const rssServingMB = mb(process.memoryUsage().rss);
  const client = SearchClient.forDaemon(d, cfg);
  const hybrid: number[] = [];
  const bm25: number[] = [];
  const took: number[] = [];
  let degraded = 0;
  try {
    for (const q of queries.slice(0, WARMUP)) {
      await client.search(q, 'hybrid');
      await client.search(q, 'bm25');
    }
    for (const q of queries) {
      let t0 = performance.now();
      const h = await client.search(q, 'hybrid');
      hybrid.push(performance.now() - t0);
      took.push(h.took_ms);
      if (h.degraded !== null || h.mode !== 'hybrid') degraded++;
      t0 = performance.now();
      await client.search(q, 'bm25');
      bm25.push(performance.now() - t0);
    }
  } finally {
    client.close();
  }
  const rssAfterSearchesMB = mb(process.memoryUsage().rss);
  const actors = Object.keys(d.handles);
  await d.stop('bench done', 0);
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  // reference after the daemon's figures, so its session does not add to them: the query embedding alone
  const createUseLiteProvider = await loadProvider();
  const p = await createUseLiteProvider({ cacheDir: root.modelDir, intraOpThreads: 1 });
  for (const q of queries.slice(0, WARMUP)) await p.embed([q]);
  const emb: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    await p.embed([q]);
    emb.push(performance.now() - t0);
  }
  await p.close();
  const db = openIndex(path.join(t.dataDir, 'index.sqlite'), { readonly: true });
  const stored = db.prepare('SELECT count(*) FROM memory_chunks').pluck().get() as number;
  db.close();
  return {
    case: kind,
    chunks: stored,
    ...extra,
    rssServingMB,
    rssAfterSearchesMB,
    peakRssMB,
    queries: queries.length,
    hybridHttp: lat(hybrid),
    bm25Http: lat(bm25),
    hybridServerTook: lat(took),
    degraded,
    queryEmbedding: lat(emb),
    actors,
    poolThreads: cfg.embedder.threads,
  };
}

interface References {
  /** RSS one idle worker thread adds, with the native modules every actor loads */
  idleThreadMB: number;
  /** the first use-lite session in a process: onnxruntime's library and the session */
  firstSessionMB: number;
  /** each further session, idle */
  sessionMB: number;
  /** what that session grows by once it has run one indexing batch (32 texts at the 128-token window) */
  sessionAfterBatchMB: number;
  /** SQLite's page cache limit per connection as openIndex sets it (MiB) */
  sqliteCacheMiB: number;
}

/** The parts the daemon's RSS is made of, each measured in a fresh process (freed memory would hide them). */
async function references(root: BenchRoot): Promise<References> {
  const idleThreadMB = await threadCost(7);
  const createUseLiteProvider = await loadProvider();
  const rss = (): number => mb(process.memoryUsage().rss);
  let before = rss();
  const first = await createUseLiteProvider({ cacheDir: root.modelDir, intraOpThreads: 1 });
  await first.embed(['warm']);
  const firstSessionMB = rss() - before;
  before = rss();
  const second = await createUseLiteProvider({ cacheDir: root.modelDir, intraOpThreads: 1 });
  await second.embed(['warm']);
  const sessionMB = rss() - before;
  const words = readFileSync(path.join(CORPORA, 'rust-book', 'ch04-01-what-is-ownership.md'), 'utf8')
    .split(/\s+/)
    .filter(Boolean);
  const batch = Array.from({ length: 32 }, (_, i) => words.slice(i * 120, i * 120 + 120).join(' ')); // past the window
  before = rss();
  await second.embed(batch);
  const sessionAfterBatchMB = rss() - before;
  await first.close();
  await second.close();
  const db = openIndex(path.join(root.dir, `probe-${process.pid}.sqlite`), { readonly: false });
  const pages = Number(db.pragma('cache_size', { simple: true })); // negative: KiB; positive: pages
  const sqliteCacheMiB = pages < 0 ? -pages / 1024 : (pages * Number(db.pragma('page_size', { simple: true }))) / 2 ** 20;
  db.close();
  return { idleThreadMB, firstSessionMB, sessionMB, sessionAfterBatchMB, sqliteCacheMiB };
}

/**
 * What a thread costs before it does anything: `count` workers that load what every actor thread loads (prom-client,
 * better-sqlite3 with sqlite-vec, pino), measured as the RSS they add. The daemon runs one per actor plus its pool threads.
 */
async function threadCost(count: number): Promise<number> {
  const { Worker } = await import('node:worker_threads');
  const code = `
    const { parentPort } = require('node:worker_threads');
    require('prom-client'); require('pino');
    const Db = require('better-sqlite3'); const vec = require('sqlite-vec');
    const db = new Db(':memory:'); vec.load(db); db.close();
    parentPort.postMessage('ready');`;
  const before = mb(process.memoryUsage().rss);
  const workers = Array.from({ length: count }, () => new Worker(code, { eval: true }));
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
  const added = mb(process.memoryUsage().rss) - before;
  await Promise.all(workers.map((w) => w.terminate()));
  return added / count;
}

async function child(kind: string): Promise<void> {
  const root = BenchRoot.at(strArg('root', ''));
  const rssBaselineMB = mb(process.memoryUsage().rss);
  const nq = intArg('queries', 200);
  let out: unknown;
  switch (kind) {
    case 'references':
      out = await references(root);
      break;
    case 'build':
      await buildStore(strArg('store', ''), intArg('chunks', 100_000), root.modelDir);
      out = { ok: true };
      break;
    case 'tldr': {
      const t = await tldrIndex(root, 'daemon-memory');
      const queries = corpusQueries('tldr-common', nq + WARMUP, 10);
      out = await measure('tldr', root, t, queries, {
        rssBaselineMB,
        rssAfterIndexMB: t.meta.rssAfterIndexMB,
        indexBuiltBy: t.reused ? t.meta.builtBy : 'this process',
      });
      break;
    }
    case 'big': {
      const half = Math.ceil((nq + WARMUP) / 2);
      const [a, b] = [corpusQueries('tldr-common', half, 10), corpusQueries('rust-book', half, 10)];
      const queries = a.flatMap((q, i) => [q, b[i]!]).slice(0, nq + WARMUP);
      const t = { vault: root.vault('tldr-common', []), dataDir: strArg('data', '') };
      out = await measure('big', root, t, queries, { rssBaselineMB, rssAfterIndexMB: null, indexBuiltBy: null });
      break;
    }
    default:
      throw new Error(`unknown --case ${kind}`);
  }
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

// ---- the parent ----

function runChild(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    p.on('error', reject);
    p.on('close', (code) => {
      const line = text.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`child ${args.join(' ')} exited ${code}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)));
    });
  });
}

async function parent(): Promise<void> {
  const n = intArg('chunks', 100_000);
  const nq = intArg('queries', 200);
  const started = machine();
  const root = await BenchRoot.create('memory');
  const pass = ['--root', root.dir, '--queries', String(nq)];
  const cache = strArg('index-cache', '');
  if (cache) pass.push('--index-cache', cache);
  try {
    console.error('  tldr corpus…');
    const tldr = (await runChild(['--case', 'tldr', ...pass])) as CaseResult;
    const dataDir = root.dataDir();
    console.error(`  writing a ${n}-chunk store with synthetic vectors…`);
    const t0 = performance.now();
    await runChild(['--case', 'build', ...pass, '--store', path.join(dataDir, 'index.sqlite'), '--chunks', String(n)]);
    const buildSeconds = (performance.now() - t0) / 1000;
    console.error(`  built in ${buildSeconds.toFixed(1)} s; daemon on it…`);
    const big = (await runChild(['--case', 'big', ...pass, '--data', dataDir])) as CaseResult;
    const refs = (await runChild(['--case', 'references', ...pass])) as References;
    const threads = big.actors.length + big.poolThreads;

    const result = {
      bench: 'daemon-memory',
      date: new Date().toISOString(),
      machine: { ...started, loadavg1mAtEnd: machine().loadavg1m },
      note: 'RSS = process.memoryUsage().rss of the whole process (main, every actor thread, the embedder pool threads). The big store has synthetic vectors (see the file header).',
      tldr,
      big: { ...big, buildSeconds },
      references: { ...refs, threadsInDaemon: threads, modelSessionsInDaemon: big.poolThreads + 1 },
      goal: { rssMBAt100k: 400, hybridP50Ms: 15, hybridP99Ms: 50 },
    };
    const f = (x: number | null): string => (x === null ? '' : x.toFixed(0));
    console.log(`\nresident memory of the daemon process (MB, all threads)`);
    console.log(
      `(machine shared: 1-min load ${started.loadavg1m.toFixed(2)} at start, ${result.machine.loadavg1mAtEnd.toFixed(2)} at end, ${started.cpus} cores)\n`,
    );
    printTable(
      ['store', 'chunks', 'process before', 'after indexing', 'serving', `after ${nq}×2 searches`, 'peak'],
      [
        [
          `tldr, real vectors${tldr.indexBuiltBy && tldr.indexBuiltBy !== 'this process' ? ` (indexed by ${tldr.indexBuiltBy})` : ''}`,
          String(tldr.chunks),
          f(tldr.rssBaselineMB),
          f(tldr.rssAfterIndexMB),
          f(tldr.rssServingMB),
          f(tldr.rssAfterSearchesMB),
          f(tldr.peakRssMB),
        ],
        [
          'synthetic vectors, written directly',
          String(big.chunks),
          f(big.rssBaselineMB),
          '',
          f(big.rssServingMB),
          f(big.rssAfterSearchesMB),
          f(big.peakRssMB),
        ],
      ],
    );
    console.log(`\nwhat the RSS is made of (MB, each measured in a fresh process of this run):\n`);
    printTable(
      ['part', 'MB', 'in the daemon'],
      [
        [
          "one idle worker thread with the actors' native modules",
          refs.idleThreadMB.toFixed(0),
          `× ${threads} (${big.actors.length} actors + ${big.poolThreads} pool threads)`,
        ],
        ['onnxruntime library + first use-lite session', refs.firstSessionMB.toFixed(0), '× 1'],
        [
          'each further use-lite session, idle',
          refs.sessionMB.toFixed(0),
          `× ${big.poolThreads} (${big.poolThreads + 1} sessions: pool + gateway)`,
        ],
        [
          '  growth of a session after one batch of 32 × 128 tokens',
          refs.sessionAfterBatchMB.toFixed(0),
          `× ${big.poolThreads} after indexing (pool threads)`,
        ],
        [
          "SQLite page cache limit per connection (openIndex's cache_size)",
          refs.sqliteCacheMiB.toFixed(0),
          'gateway, store writer, embedder reader: filled as pages are read',
        ],
      ],
    );
    console.log(`\nsearch latency over HTTP (ms), ${nq} queries of 10 words, after ${WARMUP} warm-up\n`);
    const row = (label: string, l: Latency): string[] => [label, l.p50.toFixed(2), l.p99.toFixed(2), l.mean.toFixed(2)];
    printTable(
      ['what', 'p50', 'p99', 'mean'],
      [
        row(`${big.chunks}: hybrid, HTTP round trip (query embedded by the gateway)`, big.hybridHttp),
        row(`${big.chunks}: hybrid, gateway's own took_ms`, big.hybridServerTook),
        row(`${big.chunks}: bm25 only, HTTP round trip`, big.bm25Http),
        row('reference: embedding one query alone (1 thread, this process)', big.queryEmbedding),
        row(`${tldr.chunks} tldr: hybrid, HTTP round trip`, tldr.hybridHttp),
        row(`${tldr.chunks} tldr: bm25 only, HTTP round trip`, tldr.bm25Http),
      ],
    );
    if (big.degraded + tldr.degraded > 0) console.log(`\nWARNING: ${big.degraded + tldr.degraded} hybrid searches came back degraded`);
    const rss = big.rssAfterSearchesMB;
    console.log(`\ngoal RSS ≤ 400 MB at ${big.chunks} chunks: ${rss <= 400 ? 'met' : 'not met'} (${rss.toFixed(0)} MB)`);
    console.log(
      `goal hybrid p50 ≤ 15 ms, p99 ≤ 50 ms: ${big.hybridHttp.p50 <= 15 && big.hybridHttp.p99 <= 50 ? 'met' : 'not met'} (${big.hybridHttp.p50.toFixed(1)} / ${big.hybridHttp.p99.toFixed(1)})`,
    );
    console.log(`wrote ${path.relative(process.cwd(), writeResults('daemon-memory', result))}`);
  } finally {
    root.cleanup();
  }
}

const kind = strArg('case', '');
if (kind) await child(kind);
else await parent();
