// Retrieval quality of bm25, vector and hybrid search on the shared corpora against a hand-written query set.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/retrieval-quality.js [--reuse] [--k 10] [--misses] [--cache DIR] [--group note]
// Builds a vault of tldr-common (as tldr/) and rust-book (as rust-book/), indexes it with the real daemon
// (one-shot), then runs every query of bench/qrels/queries.json in each mode through IndexView, as the gateway
// does (query embedded by use-lite, default limits). Relevance is judged per note: hits are chunks, deduplicated
// by path keeping the first rank. recall@5 = share of queries with a relevant note among the first 5 notes;
// MRR@10 = mean of 1/rank of the first relevant note among the first 10 (0 if none); section@5 (rust-book
// queries that name a heading) = a chunk under that heading among the first 5 results (with `--group note`, their
// `also` sections count too).
// --reuse keeps the built index in <tmp>/memvault-bench/retrieval-<key> (key: corpora listing, chunker, model).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLogger } from '../supervisors/runtime/log.js';
import { CHUNKER_VERSION } from '../actors/chunker/parse-note.js';
import { createUseLiteProvider } from '../actors/embedder/use-lite/provider.js';
import { useLitePackage } from '../actors/embedder/use-lite/package-files.js';
import { IndexView, type SearchResult } from '../actors/gateway/index-view.js';
import { loadConfig } from '../config/load.js';
import { Daemon } from '../main/daemon.js';
import { CORPORA } from '../test/helpers/corpora.js';

type Mode = 'bm25' | 'vector' | 'hybrid';
type Kind = 'paraphrase' | 'keyword';
const MODES: Mode[] = ['bm25', 'vector', 'hybrid'];
const KINDS: Kind[] = ['paraphrase', 'keyword'];

interface Relevant {
  path: string;
  heading?: string;
}
interface Query {
  id: string;
  query: string;
  kind: Kind;
  relevant: Relevant[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..'); // dist/bench → repo
const QRELS = path.join(repoRoot, 'bench', 'qrels', 'queries.json');
const RESULTS = path.join(repoRoot, 'bench', 'results', 'retrieval-quality.json');
/** Vault folder ← corpus folder. */
const SOURCES: Array<[string, string]> = [
  ['tldr', 'tldr-common'],
  ['rust-book', 'rust-book'],
];

function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}
function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const K = Number(arg('k', '10'));
if (!Number.isInteger(K) || K < 1) throw new RangeError('--k must be a positive integer');
const REUSE = flag('reuse');
const SHOW_MISSES = flag('misses');

function loadQueries(): Query[] {
  const qs = JSON.parse(readFileSync(QRELS, 'utf8')) as Query[];
  const ids = new Set<string>();
  for (const q of qs) {
    if (ids.has(q.id)) throw new Error(`${QRELS}: duplicate query id ${q.id}`);
    ids.add(q.id);
    if (!KINDS.includes(q.kind)) throw new Error(`${QRELS}: query ${q.id} has kind ${String(q.kind)}, want paraphrase or keyword`);
    if (q.relevant.length === 0) throw new Error(`${QRELS}: query ${q.id} lists no relevant note`);
    for (const r of q.relevant) {
      const [folder, ...rest] = r.path.split('/');
      const src = SOURCES.find(([v]) => v === folder);
      if (!src || !existsSync(path.join(CORPORA, src[1], ...rest))) throw new Error(`${QRELS}: query ${q.id}: no such note ${r.path}`);
      if (r.heading !== undefined) {
        const text = readFileSync(path.join(CORPORA, src[1], ...rest), 'utf8');
        if (!text.split('\n').some((l) => /^#{1,6}\s/.test(l) && l.replace(/^#{1,6}\s+/, '').trim() === r.heading))
          throw new Error(`${QRELS}: query ${q.id}: ${r.path} has no heading "${r.heading}"`);
      }
    }
  }
  return qs;
}

/** Identifies what the index is built from: the corpora's file listing, the chunker and the model. */
function cacheKey(): string {
  const h = createHash('sha256');
  for (const [, dir] of SOURCES) {
    for (const f of readdirSync(path.join(CORPORA, dir)).sort()) h.update(`${dir}/${f}\0${statSync(path.join(CORPORA, dir, f)).size}\n`);
  }
  h.update(`${CHUNKER_VERSION}\0use-lite@${useLitePackage().version}\0fp32`);
  return h.digest('hex').slice(0, 16);
}

interface Built {
  dir: string;
  dbFile: string;
  modelsDir: string;
  seconds: number | null; // null when reused
  chunks: number;
  notes: number;
}

async function buildIndex(): Promise<Built> {
  const dir = path.join(arg('cache', path.join(os.tmpdir(), 'memvault-bench')), `retrieval-${cacheKey()}`);
  const vault = path.join(dir, 'vault');
  const dataDir = path.join(dir, 'data');
  const dbFile = path.join(dataDir, 'index.sqlite');
  const modelsDir = path.join(dataDir, 'models');
  const done = path.join(dir, 'complete.json');
  if (REUSE && existsSync(done)) {
    const meta = JSON.parse(readFileSync(done, 'utf8')) as { chunks: number; notes: number };
    console.error(`reusing the index in ${dir}`);
    return { dir, dbFile, modelsDir, seconds: null, ...meta };
  }
  rmSync(dir, { recursive: true, force: true });
  for (const [to, from] of SOURCES) cpSync(path.join(CORPORA, from), path.join(vault, to), { recursive: true });
  const file = path.join(dir, 'memvault.yaml');
  writeFileSync(file, `data_dir: ${JSON.stringify(dataDir)}\nlisten: 127.0.0.1:0\nlog:\n  level: silent\n`);
  const cfg = loadConfig({ file, vault });
  mkdirSync(modelsDir, { recursive: true });
  console.error(`indexing ${vault} (both corpora; a few minutes) …`);
  const t0 = performance.now();
  const daemon = new Daemon(cfg, { mode: 'oneshot', log: makeLogger('main', { level: 'silent' }) });
  await daemon.start();
  const progress = setInterval(
    () => console.error(`  ${daemon.board.get('filesDone')} files, ${daemon.board.get('chunksIndexed')} chunks`),
    15_000,
  );
  try {
    await daemon.whenCaughtUp();
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - t0) / 1000;
  await daemon.stop('indexed', 0);
  const view = new IndexView(dbFile, null, limits());
  const st = view.state();
  view.close();
  const meta = { chunks: st.chunks, notes: st.documents, vectors: st.vectors, seconds };
  if (st.vectors !== st.chunks) throw new Error(`index has ${st.chunks} chunks but ${st.vectors} vectors: the embedder did not run`);
  writeFileSync(done, JSON.stringify(meta, null, 2) + '\n');
  console.error(`indexed ${st.documents} notes, ${st.chunks} chunks in ${seconds.toFixed(0)} s`);
  return { dir, dbFile, modelsDir, seconds, chunks: st.chunks, notes: st.documents };
}

/** `--group note` scores the gateway's default (one result per note); `chunk` (default here) keeps earlier figures comparable. */
const GROUP: 'note' | 'chunk' =
  process.argv.includes('--group') && process.argv[process.argv.indexOf('--group') + 1] === 'note' ? 'note' : 'chunk';

function limits(): ConstructorParameters<typeof IndexView>[2] {
  return { defaultK: 10, maxK: 50, minScore: 0, defaultMode: 'hybrid', userId: 'default' };
}

/** Distinct note paths in rank order (first rank of each note kept). */
function notesOf(results: SearchResult[]): string[] {
  return [...new Set(results.map((r) => r.path ?? ''))];
}

interface PerQuery {
  id: string;
  kind: Kind;
  /** Rank (1-based, by note) of the first relevant note, null if none in the results. */
  rank: number | null;
  /** For queries with a heading: a chunk under it among the first 5 chunks. */
  section: boolean | null;
  top: string[];
}

interface Summary {
  queries: number;
  recallAt5: number;
  mrrAt10: number;
  recallAt1: number;
  sectionAt5: number | null;
  sectionQueries: number;
}

function summarise(rows: PerQuery[]): Summary {
  const n = rows.length;
  const sec = rows.filter((r) => r.section !== null);
  return {
    queries: n,
    recallAt5: rows.filter((r) => r.rank !== null && r.rank <= 5).length / n,
    recallAt1: rows.filter((r) => r.rank === 1).length / n,
    mrrAt10: rows.reduce((s, r) => s + (r.rank !== null && r.rank <= 10 ? 1 / r.rank : 0), 0) / n,
    sectionAt5: sec.length === 0 ? null : sec.filter((r) => r.section).length / sec.length,
    sectionQueries: sec.length,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const queries = loadQueries();
  const built = await buildIndex();
  const view = new IndexView(built.dbFile, null, limits());
  view.provider = { state: 'ready', provider: await createUseLiteProvider({ cacheDir: built.modelsDir }) };
  await view.search({ query: 'warm up the model', k: K, mode: 'hybrid' });

  const per: Record<Mode, PerQuery[]> = { bm25: [], vector: [], hybrid: [] };
  const tookMs: Record<Mode, number[]> = { bm25: [], vector: [], hybrid: [] };
  for (const q of queries) {
    for (const mode of MODES) {
      const t0 = performance.now();
      const res = await view.search({ query: q.query, k: K, mode, group: GROUP });
      tookMs[mode].push(performance.now() - t0);
      if (res.mode !== mode) throw new Error(`asked ${mode}, got ${res.mode}: ${res.degraded}`);
      const notes = notesOf(res.results);
      const want = new Set(q.relevant.map((r) => r.path));
      const i = notes.findIndex((p) => want.has(p));
      const headed = q.relevant.filter((r) => r.heading !== undefined);
      const section =
        headed.length === 0
          ? null
          : res.results
              .slice(0, 5)
              .flatMap((h) => [h, ...(h.also ?? []).map((a) => ({ ...a, path: h.path }))])
              .some((h) => headed.some((r) => r.path === h.path && h.heading_path.includes(r.heading!)));
      per[mode].push({ id: q.id, kind: q.kind, rank: i < 0 ? null : i + 1, section, top: notes.slice(0, 5) });
    }
  }
  view.close();

  type Slice = 'all' | Kind | 'tldr' | 'rust-book';
  const slices: Slice[] = ['all', 'paraphrase', 'keyword', 'tldr', 'rust-book'];
  const corpusOf = (id: string): string => queries.find((q) => q.id === id)!.relevant[0]!.path.split('/')[0]!;
  const pick = (rows: PerQuery[], s: Slice): PerQuery[] =>
    s === 'all'
      ? rows
      : s === 'paraphrase' || s === 'keyword'
        ? rows.filter((r) => r.kind === s)
        : rows.filter((r) => corpusOf(r.id) === s);
  const table: Record<Slice, Record<Mode, Summary>> = Object.fromEntries(
    slices.map((s) => [s, Object.fromEntries(MODES.map((m) => [m, summarise(pick(per[m], s))]))]),
  ) as Record<Slice, Record<Mode, Summary>>;

  // Headroom: queries one of the single lists finds in its top 5 that hybrid misses, and the reverse.
  const byId = (m: Mode) => new Map(per[m].map((r) => [r.id, r]));
  const [b, v, h] = [byId('bm25'), byId('vector'), byId('hybrid')];
  const hit5 = (r: PerQuery | undefined) => r !== undefined && r.rank !== null && r.rank <= 5;
  const either = queries.filter((q) => hit5(b.get(q.id)) || hit5(v.get(q.id))).length / queries.length;
  const lostByHybrid = queries.filter((q) => (hit5(b.get(q.id)) || hit5(v.get(q.id))) && !hit5(h.get(q.id))).map((q) => q.id);
  const gainedByHybrid = queries.filter((q) => !hit5(b.get(q.id)) && !hit5(v.get(q.id)) && hit5(h.get(q.id))).map((q) => q.id);

  const pct = (x: number | null) => (x === null ? '   –  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const count = (k: Kind) => queries.filter((q) => q.kind === k).length;
  console.log(
    `\nretrieval quality, ${queries.length} queries (${count('paraphrase')} paraphrase, ${count('keyword')} keyword), k=${K} chunks per search, judged per note`,
  );
  console.log(`index: ${built.notes} notes, ${built.chunks} chunks; use-lite fp32; RRF as in actors/gateway/search.ts\n`);
  console.log('slice       |  n  | metric     |   bm25  |  vector |  hybrid');
  console.log('------------|-----|------------|---------|---------|--------');
  for (const s of slices) {
    const row = table[s];
    const metrics: Array<[string, (x: Summary) => number | null]> = [
      ['recall@5', (x) => x.recallAt5],
      ['MRR@10', (x) => x.mrrAt10],
      ['recall@1', (x) => x.recallAt1],
    ];
    if (row.hybrid.sectionAt5 !== null) metrics.push([`section@5`, (x) => x.sectionAt5]);
    for (const [name, f] of metrics) {
      const cells = MODES.map((m) => (name === 'MRR@10' ? `  ${f(row[m])!.toFixed(3)}` : ` ${pct(f(row[m]))}`));
      const n = name === 'section@5' ? row.hybrid.sectionQueries : row.hybrid.queries;
      console.log(
        `${(name === 'recall@5' || name === 'section@5' ? s : '').padEnd(11)} | ${String(n).padStart(3)} | ${name.padEnd(10)} |${cells.join(' |')}`,
      );
    }
  }
  console.log(`\nbm25 or vector finds a relevant note in its top 5 for ${pct(either)} of queries (what a perfect fusion could reach)`);
  console.log(`hybrid misses (top 5) where bm25 or vector alone hits: ${lostByHybrid.length} ${lostByHybrid.join(' ')}`);
  console.log(`hybrid hits where neither alone does: ${gainedByHybrid.length} ${gainedByHybrid.join(' ')}`);
  const lat = Object.fromEntries(MODES.map((m) => [m, median(tookMs[m])])) as Record<Mode, number>;
  console.log(
    `median search time incl. query embedding (ms): bm25 ${lat.bm25.toFixed(1)}, vector ${lat.vector.toFixed(1)}, hybrid ${lat.hybrid.toFixed(1)}`,
  );

  if (SHOW_MISSES) {
    console.log('\nper query (rank of the first relevant note: bm25 / vector / hybrid; - = not in results)');
    for (const q of queries) {
      const r = MODES.map((m) => per[m].find((x) => x.id === q.id)!.rank ?? '-').join(' / ');
      console.log(`${q.id.padEnd(8)} ${q.kind.padEnd(10)} ${r.padEnd(12)} ${q.query}`);
      if (hit5(h.get(q.id))) continue;
      console.log(`${''.padEnd(20)} want ${q.relevant.map((x) => x.path).join(', ')}; hybrid top: ${h.get(q.id)!.top.join(', ')}`);
    }
  }

  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        k: K,
        queries: queries.length,
        byKind: { paraphrase: count('paraphrase'), keyword: count('keyword') },
        index: {
          notes: built.notes,
          chunks: built.chunks,
          buildSeconds: built.seconds,
          model: `use-lite@${useLitePackage().version} fp32`,
          chunker: CHUNKER_VERSION,
        },
        node: process.version,
        table,
        summary: [
          ...MODES.map((m) => ({
            figure: `${m}: recall@5 / MRR@10 over ${queries.length} queries (paraphrase ${count('paraphrase')}, keyword ${count('keyword')})`,
            goal: '—',
            measured: `${table.all[m].recallAt5.toFixed(3)} / ${table.all[m].mrrAt10.toFixed(3)}`,
            met: null,
          })),
          {
            figure: 'hybrid beats bm25 and vector on both recall@5 and MRR@10',
            goal: 'yes',
            measured: `recall@5 ${table.all.hybrid.recallAt5.toFixed(3)} vs ${table.all.bm25.recallAt5.toFixed(3)} / ${table.all.vector.recallAt5.toFixed(3)}`,
            met: (['bm25', 'vector'] as const).every(
              (m) => table.all.hybrid.recallAt5 > table.all[m].recallAt5 && table.all.hybrid.mrrAt10 > table.all[m].mrrAt10,
            ),
          },
        ],
        fusionHeadroom: { eitherRecallAt5: either, lostByHybrid, gainedByHybrid },
        medianSearchMs: lat,
        perQuery: queries.map((q) => ({
          id: q.id,
          kind: q.kind,
          ranks: Object.fromEntries(MODES.map((m) => [m, per[m].find((x) => x.id === q.id)!.rank])),
        })),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${RESULTS}`);
}

await main();
