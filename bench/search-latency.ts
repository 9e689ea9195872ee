// Search latency at 10k and 100k chunks: each half in-process (the vector pass with its recall@10 against exact KNN,
// on synthetic vectors and, given the indexed tldr corpus, on real ones), then hybrid over HTTP through a daemon,
// query embedding included, beside bm25 over HTTP and the embedding alone measured in the same run; then hybrid right
// after each of --after-writes agent writes (vault_write waiting for its indexing: the store has written since).
// Usage: node dist/bench/search-latency.js [--sizes 10000,100000] [--queries 200] [--oversample 5,10,20,40,60]
//          [--real auto|yes|no] [--index-cache DIR] [--keep DIR] [--parts inprocess,real,http] [--after-writes 40]
// --real: recall on the real use-lite vectors of the indexed tldr corpus: auto uses it when an index cache holds it
// (run-all), yes builds it (minutes). --keep DIR keeps the built stores there and reuses them on the next run.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { DEFAULT_OVERSAMPLE, search } from '../actors/gateway/search.js';
import { mergeNow } from '../actors/store-writer/fts-merge.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { ModelInfo } from '../messages/common.js';
import type { SearchMode } from '../messages/store.js';
import {
  BenchRoot,
  corpusQueries,
  indexCacheDir,
  intArg,
  machine,
  newDaemon,
  pct,
  postJson,
  printTable,
  rng,
  SearchClient,
  strArg,
  tldrIndex,
  writeResults,
} from './harness.js';
import { buildSyntheticStore, ClusteredVectors, DIM, loadParagraphs, type Para } from './synthetic-store.js';

const K = 10;
const WARMUP = 20;
const SIZES = strArg('sizes', '10000,100000').split(',').map(Number);
const QUERIES = intArg('queries', 200);
/** Searches timed right after an agent's write (each after a vault_write that waited for its indexing). */
const AFTER_WRITES = intArg('after-writes', 40, 0);
const OVERSAMPLES = [...new Set(strArg('oversample', `5,10,${DEFAULT_OVERSAMPLE},40`).split(',').map(Number))];
const REAL = strArg('real', 'auto');
/** Which parts run: in-process figures per size, real-vector recall, the daemon over HTTP (at the largest size). */
const PARTS = new Set(strArg('parts', 'inprocess,real,http').split(','));
const KEEP = strArg('keep', '');
/** Queries whose exact neighbours are computed for recall (brute force in SQL: ~1 s each at 100k chunks). */
const RECALL_QUERIES = 50; // at most: fewer when --queries asks for fewer

interface Row {
  chunks: number;
  what: string;
  p50: number;
  p99: number;
  mean: number;
  recallAt10?: number;
}

function row(chunks: number, what: string, ts: number[], recallAt10?: number): Row {
  const r: Row = { chunks, what, p50: pct(ts, 50), p99: pct(ts, 99), mean: ts.reduce((a, b) => a + b, 0) / ts.length };
  if (recallAt10 !== undefined) r.recallAt10 = recallAt10;
  return r;
}

/** Times `fn` for each query after a warm-up (page cache, statement cache, the first load of the bits). */
function time(fn: (i: number) => void, n: number): number[] {
  for (let i = 0; i < Math.min(WARMUP, n); i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

function exactKnn(db: Database, q: Float32Array, k: number): number[] {
  return db
    .prepare(`SELECT chunk_id FROM memory_vectors ORDER BY vec_distance_cosine(embedding, ?), chunk_id LIMIT ?`)
    .pluck()
    .all(Buffer.from(q.buffer, q.byteOffset, q.byteLength), k) as number[];
}

/** recall@K of the vector search at each oversample against `exact` (the first queries), and its latency (all). */
function sweep(db: Database, n: number, label: string, qvs: Float32Array[], exact: number[][]): Row[] {
  return OVERSAMPLES.map((os) => {
    const ts = time((i) => search(db, { query: '', k: K, mode: 'vector' }, qvs[i]!, { oversample: os }), qvs.length);
    let found = 0;
    for (let i = 0; i < exact.length; i++) {
      const want = new Set(exact[i]);
      for (const h of search(db, { query: '', k: K, mode: 'vector' }, qvs[i]!, { oversample: os })) if (want.has(h.chunkId)) found++;
    }
    const def = os === DEFAULT_OVERSAMPLE ? ' (default)' : '';
    return row(n, `vector${label}, oversample ${os}${def}`, ts, found / (exact.length * K));
  });
}

function inProcess(file: string, n: number, queries: string[]): Row[] {
  const db = openIndex(file, { readonly: true }); // as the gateway reads: its own read-only connection
  // Query vectors from the data's clusters: a generator with the data's seed draws the same centres.
  const gen = new ClusteredVectors(n, 1);
  const qvs = queries.map(() => gen.next(1.1));
  const nq = queries.length;
  const rows: Row[] = [];
  const t0 = performance.now();
  search(db, { query: '', k: K, mode: 'vector' }, qvs[0]!);
  rows.push(row(n, 'first vector search (loads the bits into memory)', [performance.now() - t0]));
  const exact: number[][] = [];
  rows.push(
    row(
      n,
      'exact float KNN (brute force in SQL)',
      time((i) => (exact[i] = exactKnn(db, qvs[i]!, K)), Math.min(RECALL_QUERIES, nq)),
    ),
  );
  rows.push(...sweep(db, n, ' (synthetic)', qvs, exact));
  const modes: Array<[string, SearchMode]> = [
    ['bm25', 'bm25'],
    ['hybrid', 'hybrid'],
  ];
  for (const [label, mode] of modes)
    rows.push(
      row(
        n,
        label,
        time((i) => search(db, { query: queries[i]!, k: K, mode }, qvs[i]!), nq),
      ),
    );
  // a narrow folder (listed, then scanned) and a wide one (the Hamming order walked)
  for (const prefix of ['copy-0/tldr-common/c', 'copy-0/']) {
    const share = db
      .prepare(
        `SELECT avg(substr(d.source_id, 1, ${prefix.length}) = ?) FROM memory_chunks c JOIN memory_documents d ON d.id = c.document_id`,
      )
      .pluck()
      .get(prefix) as number;
    rows.push(
      row(
        n,
        `hybrid, path_prefix on ${(share * 100).toFixed(1)} % of chunks`,
        time((i) => search(db, { query: queries[i]!, k: K, mode: 'hybrid', filters: { pathPrefix: prefix } }, qvs[i]!), nq),
      ),
    );
  }
  db.close();
  return rows;
}

function makeQueries(paras: Para[], n: number): string[] {
  const r = rng(3);
  const out: string[] = [];
  while (out.length < n) {
    const p = paras[Math.floor(r() * paras.length)]!;
    const words = p.text.match(/[A-Za-z]{4,}/g) ?? [];
    if (words.length < 3) continue;
    const len = 2 + Math.floor(r() * 4);
    const start = Math.floor(r() * Math.max(1, words.length - len));
    out.push(words.slice(start, start + len).join(' '));
  }
  return out;
}

const loadProvider = async () => (await import('../actors/embedder/use-lite/provider.js')).createUseLiteProvider;

/** Recall on real vectors: the indexed tldr corpus, queries cut from it and embedded by the model. */
async function realRecall(root: BenchRoot): Promise<Row[]> {
  const cached = indexCacheDir();
  const have = cached !== null && existsSync(path.join(cached, 'meta.json'));
  if (REAL === 'no' || (REAL === 'auto' && !have)) return [];
  const t = await tldrIndex(root, 'search-latency');
  const file = path.join(t.dataDir, 'index.sqlite');
  openIndex(file, { readonly: false }).close(); // migrated, as the daemon would
  const db = openIndex(file, { readonly: true });
  const stored = db.prepare(`SELECT chunk_id, embedding FROM memory_vectors`).raw().all() as Array<[number, Buffer]>;
  const vecs = stored.map(([, b]) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)));
  const p = await (await loadProvider())({ cacheDir: root.modelDir, intraOpThreads: 1 });
  const qvs: Float32Array[] = [];
  for (const q of corpusQueries('tldr-common', QUERIES, 6, 7)) qvs.push((await p.embed([q]))[0]!);
  await p.close();
  const exact = qvs.map((q) =>
    vecs
      .map((v, i) => {
        let d = 0;
        for (let j = 0; j < v.length; j++) d += v[j]! * q[j]!;
        return [d, stored[i]![0]] as const;
      })
      .sort((a, b) => b[0] - a[0])
      .slice(0, K)
      .map(([, id]) => id),
  );
  const rows = sweep(db, stored.length, ' (real use-lite, tldr)', qvs, exact);
  db.close();
  return rows;
}

interface Http {
  chunks: number;
  hybrid: Row;
  hybridTook: Row;
  bm25: Row;
  afterWrite: Row;
  embedding: Row;
  degraded: number;
}

/** A daemon serving the store: hybrid and bm25 over keep-alive HTTP, interleaved, then the query embedding alone. */
async function overHttp(root: BenchRoot, dataDir: string, n: number): Promise<Http> {
  const half = Math.ceil((QUERIES + WARMUP) / 2);
  const [a, b] = [corpusQueries('tldr-common', half, 10), corpusQueries('rust-book', half, 10)];
  const queries = a.flatMap((q, i) => [q, b[i]!]).slice(0, QUERIES + WARMUP);
  const cfg = root.config(root.vault('tldr-common', []), dataDir);
  const d = newDaemon(cfg, 'serve');
  await d.start();
  await d.whenCaughtUp();
  const client = SearchClient.forDaemon(d, cfg);
  const hybrid: number[] = [];
  const took: number[] = [];
  const bm25: number[] = [];
  const afterWrite: number[] = [];
  let degraded = 0;
  try {
    for (const [i, q] of queries.entries()) {
      let t0 = performance.now();
      const h = await client.search(q, 'hybrid');
      const ms = performance.now() - t0;
      if (h.degraded !== null || h.mode !== 'hybrid') degraded++;
      t0 = performance.now();
      await client.search(q, 'bm25');
      if (i < WARMUP) continue;
      hybrid.push(ms);
      took.push(h.took_ms);
      bm25.push(performance.now() - t0);
    }
    // each search right after an agent's write that the store has indexed (the gateway recounts the index then)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // the queries again from the first when --after-writes asks for more than --queries
      const afterQueries = Array.from({ length: AFTER_WRITES > 0 ? AFTER_WRITES + WARMUP : 0 }, (_, i) => queries[i % queries.length]!);
      for (const [i, q] of afterQueries.entries()) {
        const w = await postJson(agent, client.port, client.token, '/v1/tools/vault_write', {
          path: 'Inbox/bench.md',
          content: `# bench\n\nwrite ${i}\n`,
          wait_indexed: true,
        });
        if (w.status !== 200) throw new Error(`vault_write answered ${w.status}: ${w.text}`);
        const t0 = performance.now();
        const h = await client.search(q, 'hybrid');
        if (h.degraded !== null || h.mode !== 'hybrid') degraded++;
        if (i >= WARMUP) afterWrite.push(performance.now() - t0);
      }
    } finally {
      agent.destroy();
    }
  } finally {
    client.close();
    await d.stop('bench done', 0);
  }
  const p = await (await loadProvider())({ cacheDir: root.modelDir, intraOpThreads: 1 });
  const emb: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t0 = performance.now();
    await p.embed([q]);
    if (i >= WARMUP) emb.push(performance.now() - t0);
  }
  await p.close();
  return {
    chunks: n,
    hybrid: row(n, 'hybrid over HTTP, query embedding included', hybrid),
    hybridTook: row(n, "  the gateway's own took_ms", took),
    bm25: row(n, 'bm25 over HTTP (reference, same queries, interleaved)', bm25),
    afterWrite: row(n, 'hybrid over HTTP right after a vault_write it indexed', afterWrite),
    embedding: row(n, 'embedding one query alone (reference, 1 thread)', emb),
    degraded,
  };
}

async function main(): Promise<void> {
  const started = machine();
  const paras = loadParagraphs();
  const queries = makeQueries(paras, QUERIES);
  const root = await BenchRoot.create('search');
  const all: Row[] = [];
  const builds: Array<{ chunks: number; seconds: number; fileMB: number }> = [];
  let http: Http | null = null;
  try {
    const p = await (await loadProvider())({ cacheDir: root.modelDir });
    const model: ModelInfo = p.info; // the real model's identity, so the daemon takes the synthetic vectors as its own
    await p.close();
    let last = '';
    for (const n of SIZES) {
      const dataDir = KEEP ? path.join(path.resolve(KEEP), `store-${n}`) : root.dataDir();
      const file = path.join(dataDir, 'index.sqlite');
      mkdirSync(dataDir, { recursive: true });
      const t0 = performance.now();
      if (KEEP && existsSync(file)) {
        console.error(`  reusing ${file}`);
      } else {
        console.error(`  writing a ${n}-chunk store…`);
        rmSync(file, { force: true });
        buildSyntheticStore(file, n, model, paras);
      }
      // migrated, if an older memvault built it; its full-text index merged as the daemon's idle writer leaves it
      const db = openIndex(file, { readonly: false });
      mergeNow(db);
      db.close();
      const seconds = (performance.now() - t0) / 1000;
      builds.push({ chunks: n, seconds, fileMB: statSync(file).size / 2 ** 20 });
      if (PARTS.has('inprocess')) {
        console.error(`  measuring in-process at ${n}…`);
        all.push(...inProcess(file, n, queries));
      }
      last = dataDir;
    }
    if (PARTS.has('real')) {
      console.error('  real vectors…');
      all.push(...(await realRecall(root)));
    }
    if (PARTS.has('http')) {
      console.error(`  a daemon on the ${SIZES.at(-1)}-chunk store, over HTTP…`);
      http = await overHttp(root, last, SIZES.at(-1)!);
    }
  } finally {
    root.cleanup();
  }
  const load = { before: started.loadavg1m, after: loadavg()[0]! };
  const f = (x: number): string => x.toFixed(2);
  console.log(`\nsearch latency (ms), k=${K}, dim=${DIM}, ${QUERIES} queries; CPU: ${started.cpu} × ${started.cpus}, node ${started.node}`);
  console.log(`1-min load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after (the machine may be shared)\n`);
  console.log('in-process (query vector given; what the gateway does after embedding):\n');
  printTable(
    ['chunks', 'what', 'p50', 'p99', 'mean', 'recall@10'],
    all.map((r) => [String(r.chunks), r.what, f(r.p50), f(r.p99), f(r.mean), r.recallAt10 === undefined ? '' : r.recallAt10.toFixed(3)]),
    2,
  );
  if (http) {
    const h = http;
    console.log(`\nover HTTP at ${h.chunks} chunks, ${QUERIES} queries of 10 words after ${WARMUP} warm-up:\n`);
    printTable(
      ['what', 'p50', 'p99', 'mean'],
      [h.hybrid, h.hybridTook, h.bm25, ...(AFTER_WRITES > 0 ? [h.afterWrite] : []), h.embedding].map((r) => [
        r.what,
        f(r.p50),
        f(r.p99),
        f(r.mean),
      ]),
    );
    console.log(
      `\nhybrid / bm25 over HTTP, p50: ${(h.hybrid.p50 / h.bm25.p50).toFixed(2)}×; goal hybrid p50 ≤ 15 ms, p99 ≤ 50 ms: ${
        h.hybrid.p50 <= 15 && h.hybrid.p99 <= 50 ? 'met' : 'not met'
      }`,
    );
    if (h.degraded > 0) console.log(`WARNING: ${h.degraded} hybrid searches came back degraded`);
  }
  for (const b of builds)
    console.log(`store of ${b.chunks} chunks: ${b.fileMB.toFixed(0)} MiB (written, migrated or merged in ${b.seconds.toFixed(1)} s)`);
  console.log(`peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  const out = writeResults('search-latency', {
    k: K,
    dim: DIM,
    queries: QUERIES,
    defaultOversample: DEFAULT_OVERSAMPLE,
    machine: { ...started, loadavg1mAtEnd: load.after },
    rows: all,
    http,
    builds,
  });
  console.log(`wrote ${out}`);
}

await main();
