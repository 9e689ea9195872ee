// Two builds of search() on one index, in one process: each query is answered by this build and by another checkout's
// (whichever goes first alternating), each on its own read connection, so the host's speed — which on a shared
// machine varies more by the hour than a change does — is the same for both. Prints each build's p50, the median of
// the per-query time ratios and how many answers were identical. Not in `make bench`: it needs the other build.
// Usage (a store from search-latency's --keep, the other build's dist compiled):
//   git worktree add ../old <commit> && ln -s "$PWD/node_modules" ../old/node_modules && (cd ../old && npx tsc)
//   node dist/bench/search-ab.js --old ../old --store /tmp/sl100k/store-100000/index.sqlite [--queries 600]
//     [--mode hybrid|bm25|vector] [--k 10]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Database } from 'better-sqlite3';
import { search } from '../actors/gateway/search.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { SearchHit, SearchMode, SearchRequest } from '../messages/store.js';
import { corpusQueries, intArg, machine, median, near, rng, strArg } from './harness.js';

const WARMUP = 30;
const MODES: readonly SearchMode[] = ['hybrid', 'bm25', 'vector'];

type Search = (db: Database, req: SearchRequest, queryVector: Float32Array | null) => SearchHit[];
interface Build {
  name: string;
  search: Search;
  db: Database;
}

/** The other checkout's search and index opener, from its own dist. */
async function otherBuild(root: string, store: string): Promise<Build> {
  const file = (p: string): string => {
    const f = path.resolve(root, 'dist', p);
    if (!existsSync(f)) throw new Error(`${f} is missing: build that checkout first (npx tsc -p tsconfig.json there)`);
    return pathToFileURL(f).href;
  };
  const s = (await import(file('actors/gateway/search.js'))) as { search: Search };
  const o = (await import(file('actors/store-writer/schema.js'))) as { openIndex: typeof openIndex };
  return { name: `other (${root})`, search: s.search, db: o.openIndex(store, { readonly: true, cacheMiB: 16 }) };
}

/** Noise around a stored vector, per unit of its length (near()): each query lands beside a chunk, not on it. */
const SPREAD = 0.65;

/** Query vectors near stored ones: the store's vectors may be synthetic, so no model is needed to make them. */
function queryVectors(db: Database, n: number): Float32Array[] {
  const ids = db.prepare('SELECT chunk_id FROM memory_vectors ORDER BY chunk_id').pluck().all() as number[];
  if (ids.length === 0) throw new Error('the store holds no vectors');
  const get = db.prepare('SELECT embedding FROM memory_vectors WHERE chunk_id = ?').pluck();
  const r = rng(7);
  return Array.from({ length: n }, () => {
    const b = get.get(ids[Math.floor(r() * ids.length)]!) as Buffer;
    return near(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)), SPREAD, r);
  });
}

async function main(): Promise<void> {
  const old = strArg('old', '');
  const store = strArg('store', '');
  if (!old || !store) throw new Error('usage: node dist/bench/search-ab.js --old <checkout> --store <index.sqlite> [--queries 600]');
  if (!existsSync(store)) throw new Error(`${store} does not exist (search-latency.js --keep DIR builds one)`);
  const n = intArg('queries', 600, WARMUP + 2);
  const mode = strArg('mode', 'hybrid') as SearchMode;
  if (!MODES.includes(mode)) throw new Error(`--mode must be one of ${MODES.join(', ')}`);
  const k = intArg('k', 10);
  const started = machine();
  const builds: [Build, Build] = [
    await otherBuild(old, store),
    { name: 'this build', search, db: openIndex(store, { readonly: true, cacheMiB: 16 }) },
  ];
  const half = Math.ceil(n / 2);
  const texts = [...corpusQueries('tldr-common', half, 10), ...corpusQueries('rust-book', half, 10)].slice(0, n);
  const vectors = queryVectors(builds[1].db, n);
  const ms: [number[], number[]] = [[], []];
  const ratio: number[] = [];
  let same = 0;
  for (let i = 0; i < n; i++) {
    const req: SearchRequest = { query: texts[i]!, k, mode, group: 'note', userId: 'default', filters: {} };
    const answers: string[] = [];
    const took = [0, 0];
    for (const b of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      const hits = builds[b]!.search(builds[b]!.db, req, mode === 'bm25' ? null : vectors[i]!);
      took[b] = performance.now() - t0;
      answers[b] = JSON.stringify(hits);
    }
    if (i < WARMUP) continue;
    ms[0].push(took[0]!);
    ms[1].push(took[1]!);
    ratio.push(took[1]! / took[0]!);
    if (answers[0] === answers[1]) same++;
  }
  for (const b of builds) b.db.close();
  const measured = n - WARMUP;
  console.log(`search() ${mode}, k=${k}, ${measured} queries after ${WARMUP} warm-up, each answered by both builds in turn`);
  console.log(
    `CPU: ${started.cpu} × ${started.cpus}, node ${started.node}; 1-min load ${started.loadavg1m.toFixed(2)} before, ${machine().loadavg1m.toFixed(2)} after`,
  );
  console.log(`${builds[0].name}: p50 ${median(ms[0]).toFixed(3)} ms`);
  console.log(`${builds[1].name}: p50 ${median(ms[1]).toFixed(3)} ms`);
  console.log(`median per-query ratio, this build / other: ${median(ratio).toFixed(3)}; identical answers ${same} of ${measured}`);
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exitCode = 1;
});
