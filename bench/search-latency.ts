// Search latency (bm25, vector, hybrid, exact KNN) and coarse-pass recall at 10k and 100k chunks; JSON for diffing.
// Usage: node dist/bench/search-latency.js [--sizes 10000,100000] [--queries 200] [--oversample 2,4,6,8,10,15,20,30]
// Query embedding is not included (the caller measures it); vectors are synthetic, clustered, unit, dim 512.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { DEFAULT_OVERSAMPLE, search } from '../actors/gateway/search.js';
import { IndexWriter } from '../actors/store-writer/index-writer.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { SearchMode, UpsertChunk } from '../messages/store.js';
import { CORPORA, gaussian, rng, unit } from './harness.js';

const DIM = 512;
const K = 10;
const here = dirname(fileURLToPath(import.meta.url));
// dist/bench/x.js → bench/results next to the source, so the JSON is committed with it
const RESULTS = join(here, '..', '..', 'bench', 'results', 'search-latency.json');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const SIZES = arg('sizes', '10000,100000').split(',').map(Number);
const QUERIES = Number(arg('queries', '200'));
const OVERSAMPLES = arg('oversample', '2,4,6,8,10,15,20,30').split(',').map(Number);
/** Keep the built stores in this folder (for poking at them with sqlite3) instead of a removed temp dir. */
const KEEP = arg('keep', '');

// ---- deterministic synthetic vectors: topics → subtopics → chunks (so neighbours are near, like real text) ----

function randomUnit(r: () => number): Float32Array {
  const v = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) v[i] = gaussian(r);
  return unit(v);
}

/** Vectors = topic + 0.8·subtopic + noise·random, normalised. ~50 chunks per subtopic at any size. */
class ClusteredVectors {
  readonly #r: () => number;
  readonly #topics: Float32Array[];
  readonly #subs: Float32Array[];
  constructor(n: number, seed: number) {
    this.#r = rng(seed);
    const subs = Math.max(20, Math.round(n / 50));
    const topics = Math.max(5, Math.round(subs / 20));
    this.#topics = Array.from({ length: topics }, () => randomUnit(this.#r));
    this.#subs = Array.from({ length: subs }, () => randomUnit(this.#r));
  }
  next(noise = 0.8): Float32Array {
    const s = Math.floor(this.#r() * this.#subs.length);
    const topic = this.#topics[s % this.#topics.length]!;
    const sub = this.#subs[s]!;
    const v = new Float32Array(DIM);
    const perDim = noise / Math.sqrt(DIM); // noise vector of length ≈ noise
    for (let i = 0; i < DIM; i++) v[i] = topic[i]! + 0.8 * sub[i]! + perDim * gaussian(this.#r);
    return unit(v);
  }
}

// ---- realistic text: tldr pages and Rust book paragraphs, with their heading paths ----

interface Para {
  file: string;
  text: string;
  headings: string[];
  line: number;
}

function loadParagraphs(): Para[] {
  const out: Para[] = [];
  for (const dir of ['tldr-common', 'rust-book']) {
    const root = join(CORPORA, dir);
    for (const f of readdirSync(root)
      .filter((x) => x.endsWith('.md'))
      .sort()) {
      const lines = readFileSync(join(root, f), 'utf8').split('\n');
      const headings: string[] = [];
      let buf: string[] = [];
      let start = 1;
      const flush = (end: number) => {
        const text = buf.join('\n').trim();
        if (text.length >= 20) out.push({ file: `${dir}/${f}`, text, headings: [...headings], line: start });
        buf = [];
        start = end + 1;
      };
      lines.forEach((l, i) => {
        const h = /^(#{1,6})\s+(.*)$/.exec(l);
        if (h) {
          flush(i + 1);
          headings.length = h[1]!.length - 1;
          headings.push(h[2]!.trim());
        } else if (l.trim() === '') flush(i + 1);
        else buf.push(l);
      });
      flush(lines.length);
    }
  }
  return out;
}

/** A variant of a paragraph for copy `c`: sentences rotated and a corpus word inserted, so copies differ. */
function vary(text: string, c: number, r: () => number, vocab: string[]): string {
  if (c === 0) return text;
  const sentences = text.split(/(?<=[.!?])\s+/);
  const rot = c % sentences.length;
  const word = vocab[Math.floor(r() * vocab.length)]!;
  return [...sentences.slice(rot), ...sentences.slice(0, rot)].join(' ') + ` ${word}`;
}

function sha(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

// ---- building a store ----

function build(file: string, n: number, paras: Para[], vocab: string[]): void {
  const db = openIndex(file, { readonly: false });
  const writer = new IndexWriter(db, {
    model: { provider: 'bench', name: 'synthetic-clustered', version: '1', dim: DIM },
    chunkerVersion: 'bench',
    now: Date.now,
  });
  const vectors = new ClusteredVectors(n, 1);
  const r = rng(2);
  let made = 0;
  // One outer transaction per batch: the per-document transactions become savepoints, commits are fewer.
  const batch = db.transaction((docs: Array<{ path: string; title: string; chunks: UpsertChunk[] }>) => {
    for (const d of docs) {
      writer.upsertDocument({
        sourceType: 'vault',
        sourceId: d.path,
        title: d.title,
        contentHash: sha(d.chunks.map((c) => c.hash).join()),
        mtimeMs: 0,
        size: 0,
        metadata: {},
        tags: [],
        sensitive: false,
        chunks: d.chunks,
      });
    }
  });
  for (let copy = 0; made < n; copy++) {
    let docs: Array<{ path: string; title: string; chunks: UpsertChunk[] }> = [];
    let cur: { path: string; title: string; chunks: UpsertChunk[] } | null = null;
    for (const p of paras) {
      if (made >= n) break;
      const path = copy === 0 ? p.file : `copy-${copy}/${p.file}`;
      if (!cur || cur.path !== path) {
        if (cur) docs.push(cur);
        cur = { path, title: p.headings[0] ?? p.file, chunks: [] };
      }
      const content = vary(p.text, copy, r, vocab);
      cur.chunks.push({
        seq: cur.chunks.length,
        content,
        headingPath: p.headings,
        startLine: p.line,
        endLine: p.line + content.split('\n').length - 1,
        tokenCount: content.split(/\s+/).length,
        hash: sha(`${copy}\n${content}`),
        vector: vectors.next(),
      });
      made++;
      if (docs.length >= 200) {
        batch(docs);
        docs = [];
      }
    }
    if (cur) docs.push(cur);
    batch(docs);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

// ---- measuring ----

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

interface Row {
  chunks: number;
  what: string;
  p50: number;
  p99: number;
  mean: number;
  recallAt10?: number;
}

function time(fn: (i: number) => void, n: number): number[] {
  for (let i = 0; i < Math.min(20, n); i++) fn(i); // warm the page cache and statement cache
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

function row(chunks: number, what: string, ts: number[], recallAt10?: number): Row {
  const r: Row = { chunks, what, p50: pct(ts, 50), p99: pct(ts, 99), mean: ts.reduce((a, b) => a + b, 0) / ts.length };
  if (recallAt10 !== undefined) r.recallAt10 = recallAt10;
  return r;
}

function exactKnn(db: Database, q: Float32Array, k: number): number[] {
  return db
    .prepare(`SELECT chunk_id FROM memory_vectors WHERE embedding MATCH ? AND k = ?`)
    .pluck()
    .all(Buffer.from(q.buffer, q.byteOffset, q.byteLength), k) as number[];
}

function measure(file: string, n: number, queries: string[]): Row[] {
  const db = openIndex(file, { readonly: true }); // as the gateway reads: its own read-only connection
  // Query vectors from the data's clusters: a generator with the data's seed draws the same centres.
  const gen = new ClusteredVectors(n, 1);
  const qvs = queries.map(() => gen.next(1.1));
  const rows: Row[] = [];
  const nq = queries.length;
  const exact: number[][] = [];
  rows.push(
    row(
      n,
      'exact float KNN (brute force)',
      time((i) => (exact[i] = exactKnn(db, qvs[i]!, K)), nq),
    ),
  );
  for (const os of OVERSAMPLES) {
    const ts = time((i) => search(db, { query: '', k: K, mode: 'vector' }, qvs[i]!, { oversample: os }), nq);
    let found = 0;
    for (let i = 0; i < nq; i++) {
      const want = new Set(exact[i]);
      for (const h of search(db, { query: '', k: K, mode: 'vector' }, qvs[i]!, { oversample: os })) if (want.has(h.chunkId)) found++;
    }
    rows.push(row(n, `vector coarse+rescore os=${os}${os === DEFAULT_OVERSAMPLE ? ' (default)' : ''}`, ts, found / (nq * K)));
  }
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
  const prefix = 'tldr-common/c';
  const share = db
    .prepare(
      `SELECT avg(substr(d.source_id, 1, ${prefix.length}) = ?) FROM memory_chunks c JOIN memory_documents d ON d.id = c.document_id`,
    )
    .pluck()
    .get(prefix) as number;
  rows.push(
    row(
      n,
      `hybrid, pathPrefix on ${(share * 100).toFixed(1)}% of chunks`,
      time((i) => search(db, { query: queries[i]!, k: K, mode: 'hybrid', filters: { pathPrefix: prefix } }, qvs[i]!), nq),
    ),
  );
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

function main(): void {
  const loadBefore = loadavg()[0]!;
  const paras = loadParagraphs();
  const vocab = [...new Set(paras.flatMap((p) => p.text.match(/[A-Za-z]{5,}/g) ?? []))];
  const queries = makeQueries(paras, QUERIES);
  const dir = KEEP || mkdtempSync(join(tmpdir(), 'memvault-bench-'));
  mkdirSync(dir, { recursive: true });
  const all: Row[] = [];
  const builds: Array<{ chunks: number; seconds: number; fileMB: number }> = [];
  try {
    for (const n of SIZES) {
      const file = join(dir, `index-${n}.sqlite`);
      const t0 = performance.now();
      if (KEEP && existsSync(file)) console.error(`reusing ${file}`);
      else build(file, n, paras, vocab);
      const seconds = (performance.now() - t0) / 1000;
      const { size } = statSync(file);
      builds.push({ chunks: n, seconds, fileMB: size / 2 ** 20 });
      console.error(`built ${n} chunks in ${seconds.toFixed(1)} s (${(size / 2 ** 20).toFixed(0)} MiB)`);
      all.push(...measure(file, n, queries));
      if (!KEEP) rmSync(file, { force: true });
    }
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  // Other processes on the machine slow every figure alike: a 1-minute load above the core count means contention.
  const load = { before: loadBefore, after: loadavg()[0]! };
  console.log(
    `\nsearch latency, k=${K}, dim=${DIM}, ${QUERIES} queries, default oversample ${DEFAULT_OVERSAMPLE} (ms; query embedding excluded)\n`,
  );
  console.log('chunks  | what                                      |   p50 |   p99 |  mean | recall@10');
  console.log('--------|-------------------------------------------|-------|-------|-------|----------');
  for (const r of all) {
    console.log(
      `${String(r.chunks).padStart(7)} | ${r.what.padEnd(41)} | ${r.p50.toFixed(2).padStart(5)} | ${r.p99.toFixed(2).padStart(5)} | ${r.mean
        .toFixed(2)
        .padStart(5)} | ${r.recallAt10 === undefined ? '' : r.recallAt10.toFixed(3)}`,
    );
  }
  for (const b of builds) console.log(`build ${b.chunks} chunks: ${b.seconds.toFixed(1)} s, ${b.fileMB.toFixed(0)} MiB`);
  console.log(`peak RSS: ${peakRssMB.toFixed(0)} MiB (build and search in one process)`);
  console.log(`load average (1 min) before ${load.before.toFixed(2)}, after ${load.after.toFixed(2)}, on ${availableParallelism()} cores`);
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        k: K,
        dim: DIM,
        queries: QUERIES,
        defaultOversample: DEFAULT_OVERSAMPLE,
        node: process.version,
        cores: availableParallelism(),
        load,
        rows: all,
        builds,
        peakRssMB,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${RESULTS}`);
}

main();
