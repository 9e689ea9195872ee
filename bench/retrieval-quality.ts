// Retrieval quality of bm25, vector and hybrid search on the shared corpora against a hand-written query set, with a
// tuning half and a held-out half, for today's ranking beside the baseline ranking measured in the same run.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/retrieval-quality.js [--reuse] [--k 10] [--misses] [--cache DIR]
//        [--group note|chunk] [--half tune|held-out|both] [--variant NAME=JSON]... [--detail] [--results FILE]
//        [--budget N] (search.match_budget; e.g. 478 to rank this 19k-chunk index as the default 2,500 ranks 100k)
// Builds a vault of tldr-common (as tldr/) and rust-book (as rust-book/), indexes it with the real daemon
// (one-shot), then runs every query of bench/qrels/queries.json in each mode through IndexView, as the gateway
// does (query embedded by use-lite, default limits, results one per note unless --group chunk). Relevance is
// judged per note. recall@5 = share of queries with a relevant note among the first 5 notes; MRR@10 = mean of
// 1/rank of the first relevant note among the first 10 (0 if none); section@5 (queries that name a heading) = a
// chunk under that heading among the first 5 results or their `also` sections.
// Each query belongs to a half (`half` in the qrels, drawn once per corpus and kind by sha256 of the id): settings
// are tuned on `tune` (--half tune hides the other) and kept for what they do on `held-out`. Configurations: the
// baseline ranking (BASELINE_RANKING: before issue 18's ranking work), today's (DEFAULT_RANKING), and any
// --variant, a JSON of ranking.ts overrides applied to today's, e.g. --variant 'rrf20={"fusion":{"kind":"rrf","k":20,"vector":1}}'.
// --reuse keeps the built index in <tmp>/memvault-bench/retrieval-<key> (key: corpora listing, chunker, model, schema).
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
import { BASELINE_RANKING, DEFAULT_RANKING, type Ranking, type RankingOverrides, withRanking } from '../actors/gateway/ranking.js';
import { SCHEMA_VERSION } from '../actors/store-writer/schema.js';
import { loadConfig } from '../config/load.js';
import { Daemon } from '../main/daemon.js';
import { CORPORA } from '../test/helpers/corpora.js';
import { cpuName } from './harness.js';

type Mode = 'bm25' | 'vector' | 'hybrid';
type Kind = 'paraphrase' | 'keyword';
type Half = 'tune' | 'held-out';
const MODES: Mode[] = ['bm25', 'vector', 'hybrid'];
const KINDS: Kind[] = ['paraphrase', 'keyword'];
const HALVES: Half[] = ['tune', 'held-out'];

interface Relevant {
  path: string;
  heading?: string;
}
interface Query {
  id: string;
  query: string;
  kind: Kind;
  half: Half;
  relevant: Relevant[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..'); // dist/bench → repo
const QRELS = path.join(repoRoot, 'bench', 'qrels', 'queries.json');
const RESULTS = arg('results', path.join(repoRoot, 'bench', 'results', 'retrieval-quality.json'));
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
    if (!HALVES.includes(q.half)) throw new Error(`${QRELS}: query ${q.id} has half ${String(q.half)}, want tune or held-out`);
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
  h.update(`${CHUNKER_VERSION}\0use-lite@${useLitePackage().version}\0fp32\0schema ${SCHEMA_VERSION}`);
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

/** One result per note, as the gateway answers by default; `--group chunk` scores the per-section shape. */
const GROUP: 'note' | 'chunk' = arg('group', 'note') === 'chunk' ? 'chunk' : 'note';
const SHOW: Half[] = (() => {
  const h = arg('half', 'both');
  if (h === 'both') return HALVES;
  if (h === 'tune' || h === 'held-out') return [h];
  throw new RangeError('--half must be tune, held-out or both');
})();
const DETAIL = flag('detail');

function limits(): ConstructorParameters<typeof IndexView>[2] {
  const budget = arg('budget', '');
  return {
    defaultK: 10,
    maxK: 50,
    minScore: 0,
    defaultMode: 'hybrid',
    userId: 'default',
    ...(budget ? { matchBudget: Number(budget) } : {}),
  };
}

/** The rankings to compare: the baseline first (the reference), today's, then each --variant over today's. */
function configs(): Array<{ name: string; ranking: Ranking }> {
  const out = [
    { name: 'baseline', ranking: BASELINE_RANKING },
    { name: 'now', ranking: DEFAULT_RANKING },
  ];
  process.argv.forEach((a, i) => {
    if (a !== '--variant') return;
    const spec = process.argv[i + 1] ?? '';
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new RangeError(`--variant wants NAME=JSON, got ${spec}`);
    out.push({ name: spec.slice(0, eq), ranking: withRanking(DEFAULT_RANKING, JSON.parse(spec.slice(eq + 1)) as RankingOverrides) });
  });
  return out;
}

/** Distinct note paths in rank order (first rank of each note kept). */
function notesOf(results: SearchResult[]): string[] {
  return [...new Set(results.map((r) => r.path ?? ''))];
}

interface PerQuery {
  id: string;
  kind: Kind;
  half: Half;
  corpus: string;
  /** Rank (1-based, by note) of the first relevant note, null if none in the results. */
  rank: number | null;
  /** For queries with a heading: a chunk under it among the first 5 results (or their `also`). */
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
  const n = Math.max(1, rows.length);
  const sec = rows.filter((r) => r.section !== null);
  return {
    queries: rows.length,
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

type Slice = 'all' | Kind | 'tldr' | 'rust-book';
const SLICES: Slice[] = ['all', 'paraphrase', 'keyword', 'tldr', 'rust-book'];
type Table = Record<Half, Record<Slice, Record<Mode, Summary>>>;

function tabulate(per: Record<Mode, PerQuery[]>): Table {
  const pick = (rows: PerQuery[], h: Half, s: Slice): PerQuery[] =>
    rows.filter((r) => r.half === h && (s === 'all' || r.kind === s || r.corpus === s));
  return Object.fromEntries(
    HALVES.map((h) => [
      h,
      Object.fromEntries(SLICES.map((s) => [s, Object.fromEntries(MODES.map((m) => [m, summarise(pick(per[m], h, s))]))])),
    ]),
  ) as Table;
}

interface Run {
  name: string;
  ranking: Ranking;
  per: Record<Mode, PerQuery[]>;
  tookMs: Record<Mode, number[]>;
}

/**
 * Every query in every mode under every configuration, the configurations interleaved per query so that their
 * search times are measured under the same load (this machine is shared).
 */
async function runAll(view: IndexView, queries: Query[], cfgs: Array<{ name: string; ranking: Ranking }>): Promise<Run[]> {
  const runs: Run[] = cfgs.map((c) => ({ ...c, per: { bm25: [], vector: [], hybrid: [] }, tookMs: { bm25: [], vector: [], hybrid: [] } }));
  for (const q of queries) {
    for (const run of runs) {
      for (const mode of MODES) {
        const t0 = performance.now();
        const res = await view.search({ query: q.query, k: K, mode, group: GROUP }, { ranking: run.ranking });
        run.tookMs[mode].push(performance.now() - t0);
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
        const corpus = q.relevant[0]!.path.split('/')[0]!;
        run.per[mode].push({ id: q.id, kind: q.kind, half: q.half, corpus, rank: i < 0 ? null : i + 1, section, top: notes.slice(0, 5) });
      }
    }
  }
  return runs;
}

const pct = (x: number | null): string => (x === null ? '    – ' : `${(x * 100).toFixed(1).padStart(5)}%`);
const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const dmrr = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** Held-out goals of issue 18, judged on one configuration's table against the baseline's. */
function goals(t: Table, base: Table): Array<{ goal: string; measured: string; met: boolean }> {
  const h = t['held-out'].all;
  const best = Math.max(h.bm25.recallAt5, h.vector.recallAt5);
  const para = t['held-out'].paraphrase.hybrid.recallAt5;
  const basePara = base['held-out'].paraphrase.hybrid.recallAt5;
  return [
    {
      goal: 'hybrid recall@5 ≥ both single modes + 3 points',
      measured: `${pct(h.hybrid.recallAt5).trim()} vs bm25 ${pct(h.bm25.recallAt5).trim()}, vector ${pct(h.vector.recallAt5).trim()}`,
      met: h.hybrid.recallAt5 >= best + 0.03 - 1e-9,
    },
    {
      goal: 'hybrid MRR@10 above both single modes',
      measured: `${h.hybrid.mrrAt10.toFixed(3)} vs bm25 ${h.bm25.mrrAt10.toFixed(3)}, vector ${h.vector.mrrAt10.toFixed(3)}`,
      met: h.hybrid.mrrAt10 > h.bm25.mrrAt10 && h.hybrid.mrrAt10 > h.vector.mrrAt10,
    },
    {
      goal: "paraphrase recall@5 +15 points over the baseline's hybrid",
      measured: `${pct(para).trim()} vs ${pct(basePara).trim()} (${pts(para - basePara)})`,
      met: para >= basePara + 0.15 - 1e-9,
    },
  ];
}

async function main(): Promise<void> {
  // only the halves shown run: tuning never even computes the held-out figures
  const queries = loadQueries().filter((q) => SHOW.includes(q.half));
  const built = await buildIndex();
  const view = new IndexView(built.dbFile, null, limits());
  view.provider = { state: 'ready', provider: await createUseLiteProvider({ cacheDir: built.modelsDir }) };
  await view.search({ query: 'warm up the model', k: K, mode: 'hybrid' });

  const runs = (await runAll(view, queries, configs())).map((r) => ({
    ...r,
    table: tabulate(r.per),
    ms: Object.fromEntries(MODES.map((m) => [m, median(r.tookMs[m])])) as Record<Mode, number>,
  }));
  view.close();
  const base = runs[0]!;

  const count = (k: Kind, h: Half) => queries.filter((q) => q.kind === k && q.half === h).length;
  console.log(
    `\nretrieval quality, ${queries.length} queries judged per note; k=${K}, group ${GROUP}; ` +
      HALVES.map((h) => `${h}: ${count('paraphrase', h)} paraphrase + ${count('keyword', h)} keyword`).join(', '),
  );
  console.log(
    `index: ${built.notes} notes, ${built.chunks} chunks; use-lite fp32; Δ = against the baseline ranking, same mode, same run\n`,
  );
  const slices: Slice[] = DETAIL ? SLICES : ['all', 'paraphrase'];
  for (const h of SHOW) {
    console.log(`${`${h} half`.padEnd(21)} | ${'recall@5 (Δ points)'.padStart(29).padEnd(42)} | ${'MRR@10 (Δ)'.padStart(26)}`);
    console.log(`config     slice      |     bm25     |    vector    |    hybrid    |     bm25      |    vector     |    hybrid`);
    for (const run of runs) {
      for (const s of slices) {
        const row = run.table[h][s];
        const b = base.table[h][s];
        const rec = MODES.map(
          (m) => `${pct(row[m].recallAt5)} ${run === base ? '     ' : pts(row[m].recallAt5 - b[m].recallAt5).padStart(5)}`,
        );
        const mrr = MODES.map((m) => ` ${row[m].mrrAt10.toFixed(3)} ${run === base ? '      ' : dmrr(row[m].mrrAt10 - b[m].mrrAt10)}`);
        console.log(`${(s === slices[0] ? run.name : '').padEnd(10)} ${s.padEnd(10)} | ${rec.join(' | ')} | ${mrr.join(' | ')}`);
      }
      if (DETAIL) {
        // queries that name a heading: a chunk under it among the first 5 results or their `also`
        const row = run.table[h].all;
        const sec = MODES.map(
          (m) =>
            `${pct(row[m].sectionAt5)} ${run === base ? '     ' : pts((row[m].sectionAt5 ?? 0) - (base.table[h].all[m].sectionAt5 ?? 0)).padStart(5)}`,
        );
        console.log(
          `${''.padEnd(10)} ${'section@5'.padEnd(10)} | ${sec.join(' | ')} | (${row.hybrid.sectionQueries} queries naming a heading)`,
        );
      }
    }
    console.log('');
  }
  if (SHOW.includes('held-out') && SHOW.includes('tune')) {
    for (const run of runs.slice(1)) {
      console.log(`goals on the held-out half, ${run.name}:`);
      for (const g of goals(run.table, base.table)) console.log(`  ${g.met ? 'met ' : 'MISS'}  ${g.goal}: ${g.measured}`);
    }
  }
  // configurations interleaved per query: the ratios compare like with like on a busy machine
  const lat = runs
    .map(
      (r) =>
        `${r.name} ${MODES.map((m) => `${m} ${r.ms[m].toFixed(1)}${r === base ? '' : ` (×${(r.ms[m] / base.ms[m]).toFixed(2)})`}`).join(', ')}`,
    )
    .join('; ');
  console.log(`median search time incl. query embedding, ms (× the baseline's), ${cpuName()}, load ${os.loadavg()[0]!.toFixed(1)}: ${lat}`);

  if (SHOW_MISSES) {
    const last = runs[runs.length - 1]!;
    const shown = queries.filter((q) => SHOW.includes(q.half));
    console.log(`\nper query, ${last.name} (rank of the first relevant note: bm25 / vector / hybrid; - = not in results)`);
    for (const q of shown) {
      const r = MODES.map((m) => last.per[m].find((x) => x.id === q.id)!.rank ?? '-').join(' / ');
      console.log(`${q.id.padEnd(6)} ${q.half.padEnd(8)} ${q.kind.padEnd(10)} ${r.padEnd(12)} ${q.query}`);
      const h = last.per.hybrid.find((x) => x.id === q.id)!;
      if (h.rank !== null && h.rank <= 5) continue;
      console.log(`${''.padEnd(20)} want ${q.relevant.map((x) => x.path).join(', ')}; hybrid top: ${h.top.join(', ')}`);
    }
  }

  mkdirSync(path.dirname(RESULTS), { recursive: true });
  const now = runs[1]!;
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        k: K,
        group: GROUP,
        queries: queries.length,
        halves: Object.fromEntries(HALVES.map((h) => [h, { paraphrase: count('paraphrase', h), keyword: count('keyword', h) }])),
        index: {
          notes: built.notes,
          chunks: built.chunks,
          buildSeconds: built.seconds,
          model: `use-lite@${useLitePackage().version} fp32`,
          chunker: CHUNKER_VERSION,
          schema: SCHEMA_VERSION,
        },
        node: process.version,
        cpu: cpuName(),
        configs: runs.map((r) => ({ name: r.name, ranking: r.ranking, table: r.table, medianSearchMs: r.ms })),
        summary:
          SHOW.length < 2
            ? null
            : goals(now.table, base.table).map((g) => ({ figure: g.goal, goal: 'held-out half', measured: g.measured, met: g.met })),
        perQuery: queries.map((q) => ({
          id: q.id,
          kind: q.kind,
          half: q.half,
          ranks: Object.fromEntries(
            runs.map((r) => [r.name, Object.fromEntries(MODES.map((m) => [m, r.per[m].find((x) => x.id === q.id)!.rank]))]),
          ),
        })),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${RESULTS}`);
}

await main();
