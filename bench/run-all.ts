// Runs every benchmark (each a child process with its default arguments) and prints one table of goals against figures.
//
// Run: make bench, or npx tsc -p tsconfig.json && node dist/bench/run-all.js [--only a,b] [--skip a,b]
// Every bench/<name>.ts is a benchmark (but harness and this file); those not built are skipped and listed. The indexed tldr vault that edit-latency
// builds (minutes) is shared with restart and daemon-memory through MEMVAULT_BENCH_INDEX_CACHE, a temp folder removed
// at the end. Each script still prints its own table; this one reads their bench/results/<name>.json, written in this
// run, and writes bench/results/summary.json. The machine may be shared: the figures are medians, read them as such.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, printTable, strArg, writeResults } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '..', '..');

/**
 * Run order for the scripts this file knows: the shared tldr index is built by edit-latency and reused by the ones
 * after it (search-latency measures recall on its real vectors). Every other bench/<name>.ts found (scripts other helpers add) runs after these, by name.
 */
const ORDER = [
  'model-throughput',
  'index-throughput',
  'edit-latency',
  'search-latency',
  'restart',
  'daemon-memory',
  'retrieval-quality',
  'qmd-compare',
];
/** Modules in bench/ that are not benchmarks, or need what `make bench` cannot give (search-ab: another build). */
const NOT_BENCHES = new Set(['harness', 'run-all', 'synthetic-store', 'proc-memory', 'search-ab']);

/** Benchmarks with a source in bench/ (a stale dist file of a removed script is not one); built or not. */
function discover(): string[] {
  const found = readdirSync(path.join(REPO, 'bench'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .filter((n) => !NOT_BENCHES.has(n));
  return [...ORDER, ...found.filter((n) => !ORDER.includes(n)).sort()];
}

interface Row {
  bench: string;
  figure: string;
  goal: string;
  measured: string;
  /** null: a figure to read, with no goal set for it */
  met: boolean | null;
}

/** A results file: each script's own shape, so it is read through `at`, which never throws on a missing field. */
type Json = unknown;

/** The value at a dotted path (`big.hybridHttp.p50`), or undefined. */
function at(r: Json, dotted: string): unknown {
  let v: unknown = r;
  for (const k of dotted.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}
const n = (r: Json, dotted: string): number => {
  const v = at(r, dotted);
  return typeof v === 'number' ? v : NaN;
};

const ms = (x: unknown): string => (typeof x === 'number' ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '?');
const num = (x: unknown, d = 1): string => (typeof x === 'number' ? x.toFixed(d) : '?');
const le = (x: unknown, limit: number): boolean | null => (typeof x === 'number' ? x <= limit : null);
const ge = (x: unknown, limit: number): boolean | null => (typeof x === 'number' ? x >= limit : null);
const bool = (x: unknown): boolean | null => (typeof x === 'boolean' ? x : null);
const asList = (x: unknown): Json[] => (Array.isArray(x) ? (x as Json[]) : []);

/** Goals and headline figures per script; a shape this does not know yields one row pointing at the file. */
const EXTRACT: Record<string, (r: Json) => Row[]> = {
  'model-throughput': (r) => {
    const rows = asList(at(r, 'rows'));
    const pick = (variant: string) =>
      rows.find(
        (x) =>
          at(x, 'engine') === 'onnxruntime' &&
          at(x, 'variant') === variant &&
          at(x, 'threads') === '2 pool workers' &&
          at(x, 'batch') === 32,
      );
    return [
      ...(['fp32', 'int8'] as const).map((v) => ({
        bench: 'model-throughput',
        figure: `use-lite ${v}, 2 pool workers, batch 32`,
        goal: '—',
        measured: `${num(at(pick(v), 'sentencesPerSec'))} sentences/s`,
        met: null,
      })),
      {
        bench: 'model-throughput',
        figure: `int8 speed-up over fp32 (2 pool workers) on ${String(at(r, 'machine.cpu.model') ?? '?')}, ${String(at(r, 'machine.cpu.int8Weights') ?? '?')}`,
        goal: '—',
        measured: `${num(n(r, 'int8SpeedupOverFp32.2 pool workers'), 2)}×`,
        met: null,
      },
    ];
  },
  'search-latency': (r) => {
    const rows = asList(at(r, 'rows'));
    const biggest = Math.max(...rows.map((x) => Number(at(x, 'chunks')) || 0));
    const real = rows.find((x) => String(at(x, 'what')).startsWith('vector (real') && String(at(x, 'what')).endsWith('(default)'));
    return [
      {
        bench: 'search-latency',
        figure: `hybrid over HTTP incl. query embedding at ${at(r, 'http.chunks') ?? '?'} chunks, p50 / p99 (${String(at(r, 'machine.cpu') ?? '?')})`,
        goal: '≤ 15 / 50 ms',
        measured: `${ms(at(r, 'http.hybrid.p50'))} / ${ms(at(r, 'http.hybrid.p99'))}`,
        met: typeof at(r, 'http.hybrid.p50') === 'number' ? n(r, 'http.hybrid.p50') <= 15 && n(r, 'http.hybrid.p99') <= 50 : null,
      },
      {
        bench: 'search-latency',
        figure: 'bm25 over HTTP, same queries (reference), p50 / p99',
        goal: '—',
        measured: `${ms(at(r, 'http.bm25.p50'))} / ${ms(at(r, 'http.bm25.p99'))}`,
        met: null,
      },
      {
        bench: 'search-latency',
        figure: 'hybrid over HTTP right after an indexed vault_write, p50 / p99',
        goal: '—',
        measured: `${ms(at(r, 'http.afterWrite.p50'))} / ${ms(at(r, 'http.afterWrite.p99'))}`,
        met: null,
      },
      {
        bench: 'search-latency',
        figure: `vector pass recall@10 against exact KNN, real vectors (${at(real, 'chunks') ?? '?'} chunks), default oversample`,
        goal: '≥ 0.99',
        measured: num(at(real, 'recallAt10'), 3),
        met: ge(at(real, 'recallAt10'), 0.99),
      },
      ...['bm25', 'hybrid'].map((what) => {
        const x = rows.find((y) => at(y, 'chunks') === biggest && at(y, 'what') === what);
        return {
          bench: 'search-latency',
          figure: `${what} at ${biggest} chunks, in-process, no query embedding (p50/p99)`,
          goal: '—',
          measured: `${ms(at(x, 'p50'))} / ${ms(at(x, 'p99'))}`,
          met: null,
        };
      }),
    ];
  },
  'index-throughput': (r) => [
    {
      bench: 'index-throughput',
      figure: `daemon chunks/s vs raw model, same ${at(r, 'subset.chunks') ?? '?'} chunks (incl. start-up)`,
      goal: '≥ 90 %',
      measured: `${num(at(r, 'daemon.chunksPerSec'))} vs ${num(at(r, 'raw.chunksPerSec'))} = ${num(n(r, 'ratio') * 100, 0)} %`,
      met: ge(at(r, 'ratio'), 0.9),
    },
    {
      bench: 'index-throughput',
      figure: 'same, excluding start-up (start() → embedder ready)',
      goal: '≥ 90 %',
      measured: `${num(at(r, 'daemon.chunksPerSecExStartup'))} chunks/s = ${num(n(r, 'ratioExStartup') * 100, 0)} % (start-up ${ms(at(r, 'daemon.startupMs'))})`,
      met: ge(at(r, 'ratioExStartup'), 0.9),
    },
  ],
  'edit-latency': (r) => {
    const [def, fast] = asList(at(r, 'variants'));
    return [
      {
        bench: 'edit-latency',
        figure: 'edit → searchable p50 (default config, debounce 200 ms)',
        goal: '≤ 400 ms',
        measured: ms(at(def, 'searchable.p50')),
        met: le(at(def, 'searchable.p50'), 400),
      },
      {
        bench: 'edit-latency',
        figure: 'edit → searchable p95 (default config)',
        goal: '≤ 1000 ms',
        measured: ms(at(def, 'searchable.p95')),
        met: le(at(def, 'searchable.p95'), 1000),
      },
      {
        bench: 'edit-latency',
        figure: 'edit → searchable p50 with debounce_ms 50 (reference)',
        goal: '—',
        measured: ms(at(fast, 'searchable.p50')),
        met: null,
      },
      {
        bench: 'edit-latency',
        figure: `index ${at(r, 'vault.notes') ?? '?'} notes from scratch (serve mode)`,
        goal: '—',
        measured: `${num(n(r, 'index.indexMs') / 1000)} s, ${at(r, 'vault.chunks') ?? '?'} chunks`,
        met: null,
      },
    ];
  },
  restart: (r) => [
    {
      bench: 'restart',
      figure: `restart over ${at(r, 'vault.notes') ?? '?'} unchanged notes → caught up and first search`,
      goal: '≤ 1000 ms',
      measured: `${ms(at(r, 'medians.caughtUpAndSearchedMs'))} (scan ${ms(at(r, 'medians.scanMs'))}, open index ${ms(at(r, 'medians.openIndexMs'))})`,
      met: le(at(r, 'medians.caughtUpAndSearchedMs'), 1000),
    },
    {
      bench: 'restart',
      figure: `restart over ${at(r, 'big.vault.notes') ?? '?'} unchanged notes → caught up and first search`,
      goal: '≤ 3000 ms',
      measured: `${ms(at(r, 'big.medians.caughtUpAndSearchedMs'))} (scan ${ms(at(r, 'big.medians.scanMs'))})`,
      met: le(at(r, 'big.medians.caughtUpAndSearchedMs'), 3000),
    },
    {
      bench: 'restart',
      figure: 'restart re-embeds and re-reads nothing (embedCalls = filesDone = 0)',
      goal: '0 / 0',
      measured: at(r, 'noWork') ? '0 / 0' : 'not 0',
      met: bool(at(r, 'noWork')),
    },
  ],
  // the real daemon (bench/daemon-rss.ts): steady RSS = the larger of after the pool release and after the searches
  'daemon-rss': (r) =>
    asList(at(r, 'results')).map((c) => {
      const steady = Math.max(n(c, 'stages.afterRelease.rssMB'), n(c, 'stages.afterSearches.rssMB'));
      const limit = n(r, `goal.${String(at(c, 'case'))}`);
      return {
        bench: 'daemon-rss',
        figure: `RSS of \`memvault start\`, ${String(at(c, 'case'))} (${num(at(c, 'chunks'), 0)} chunks, ${num(at(c, 'chunksPerSecond'))} chunks/s): steady after indexing and ${num(at(c, 'searches'), 0)} searches (peak)`,
        goal: `≤ ${limit} MB`,
        measured: `${num(steady, 0)} MB (${num(at(c, 'peakMB'), 0)})`,
        met: le(steady, limit),
      };
    }),
  'daemon-memory': (r) => [
    {
      bench: 'daemon-memory',
      figure: `RSS after indexing the tldr corpus (${at(r, 'tldr.chunks') ?? '?'} chunks)`,
      goal: '—',
      measured: `${num(at(r, 'tldr.rssAfterIndexMB'), 0)} MB`,
      met: null,
    },
    {
      bench: 'daemon-memory',
      figure: `RSS serving ${at(r, 'big.chunks') ?? '?'} chunks after searches (synthetic vectors)`,
      goal: '≤ 400 MB',
      measured: `${num(at(r, 'big.rssAfterSearchesMB'), 0)} MB`,
      met: le(at(r, 'big.rssAfterSearchesMB'), 400),
    },
    {
      bench: 'daemon-memory',
      figure: `hybrid over HTTP incl. query embedding at ${at(r, 'big.chunks') ?? '?'}, p50`,
      goal: '≤ 15 ms',
      measured: ms(at(r, 'big.hybridHttp.p50')),
      met: le(at(r, 'big.hybridHttp.p50'), 15),
    },
    {
      bench: 'daemon-memory',
      figure: 'same, p99',
      goal: '≤ 50 ms',
      measured: ms(at(r, 'big.hybridHttp.p99')),
      met: le(at(r, 'big.hybridHttp.p99'), 50),
    },
    {
      bench: 'daemon-memory',
      figure: 'bm25 only over HTTP at the same size, p50 / p99 (reference)',
      goal: '—',
      measured: `${ms(at(r, 'big.bm25Http.p50'))} / ${ms(at(r, 'big.bm25Http.p99'))}`,
      met: null,
    },
  ],
  'retrieval-quality': (r) => {
    const all = at(r, 'table.all');
    if (all === undefined) return [];
    return ['bm25', 'vector', 'hybrid'].map((mode) => ({
      bench: 'retrieval-quality',
      figure: `${mode}: recall@5 / MRR@10 over ${at(all, `${mode}.queries`) ?? '?'} queries`,
      goal: '—',
      measured: `${num(at(all, `${mode}.recallAt5`), 3)} / ${num(at(all, `${mode}.mrrAt10`), 3)}`,
      met: null,
    }));
  },
  'episodes-chat-latency': (r) => [
    {
      bench: 'episodes-chat-latency',
      figure: `chat at 1 message/s: POST → found by search (p50, p95)`,
      goal: 'p50 ≤ 300 ms',
      measured: `${ms(at(r, 'searchableMs.p50'))}, ${ms(at(r, 'searchableMs.p95'))}`,
      met: le(at(r, 'searchableMs.p50'), 300),
    },
  ],
  'episodes-burst': (r) => [
    {
      bench: 'episodes-burst',
      figure: `${at(r, 'messages') ?? '?'} messages over ${at(r, 'sessions') ?? '?'} sessions: accepted`,
      goal: '≥ 1,000 episodes/s',
      measured: `${num(at(r, 'acceptedPerSec'), 0)} episodes/s`,
      met: ge(at(r, 'acceptedPerSec'), 1000),
    },
    {
      bench: 'episodes-burst',
      figure: 'all searchable vs the model alone on the texts embedded',
      goal: 'within the model’s throughput (≤ 1.5×)',
      measured: `${num(n(r, 'searchableMs') / 1000)} s vs ${num(n(r, 'modelAloneMs') / 1000)} s (${num(at(r, 'ratioToModel'), 2)}×)`,
      met: le(at(r, 'ratioToModel'), 1.5),
    },
  ],
  'episodes-remember': (r) => [
    {
      bench: 'episodes-remember',
      figure: 'memory_remember incl. its commit (p50; vault_write p50 same run)',
      goal: 'p50 ≤ 25 ms',
      measured: `${ms(at(r, 'rememberMs.p50'))} (${ms(at(r, 'vaultWriteMs.p50'))})`,
      met: le(at(r, 'rememberMs.p50'), 25),
    },
    {
      bench: 'episodes-remember',
      figure: 'the last appends to a day log vs the first (p50 ratio)',
      goal: '≤ 1.25 (equal within noise)',
      measured: `${num(at(r, 'rememberMs.ratioLastToFirst'), 2)}`,
      met: le(at(r, 'rememberMs.ratioLastToFirst'), 1.25),
    },
  ],
};

/** A script's own `summary` rows ({figure, goal, measured, met}) win: the other helper's scripts may offer them. */
function rowsFor(name: string, r: Json): Row[] {
  const own = at(r, 'summary');
  if (Array.isArray(own) && own.every((x) => x && typeof x === 'object' && 'figure' in x && 'measured' in x))
    return own.map((x: Json) => ({
      bench: name,
      figure: String(at(x, 'figure')),
      goal: String(at(x, 'goal') ?? '—'),
      measured: String(at(x, 'measured')),
      met: bool(at(x, 'met')),
    }));
  try {
    const rows = EXTRACT[name]?.(r) ?? [];
    if (rows.length) return rows;
  } catch {
    /* an unexpected shape: fall through to the pointer */
  }
  return [
    {
      bench: name,
      figure: 'ran; no summary this table knows how to read',
      goal: '—',
      measured: `see bench/results/${name}.json`,
      met: null,
    },
  ];
}

function run(name: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    console.log(`\n=== ${name} ${'='.repeat(Math.max(0, 70 - name.length))}`);
    const p = spawn(process.execPath, [path.join(REPO, 'dist', 'bench', `${name}.js`)], { stdio: 'inherit', cwd: REPO, env });
    p.on('close', (code) => resolve({ code, seconds: (performance.now() - t0) / 1000 }));
    p.on('error', () => resolve({ code: -1, seconds: (performance.now() - t0) / 1000 }));
  });
}

async function main(): Promise<void> {
  const only = strArg('only', '').split(',').filter(Boolean);
  const skip = strArg('skip', '').split(',').filter(Boolean);
  const chosen = discover().filter((b) => (only.length === 0 || only.includes(b)) && !skip.includes(b));
  const started = machine();
  const cache = mkdtempSync(path.join(os.tmpdir(), 'memvault-bench-shared-'));
  const env = { ...process.env, MEMVAULT_BENCH_INDEX_CACHE: process.env['MEMVAULT_BENCH_INDEX_CACHE'] ?? path.join(cache, 'tldr') };
  const scripts: Array<{ name: string; status: 'ok' | 'failed' | 'missing' | 'no-results'; seconds: number; exitCode: number | null }> = [];
  const rows: Row[] = [];
  try {
    for (const name of chosen) {
      if (!existsSync(path.join(REPO, 'dist', 'bench', `${name}.js`))) {
        scripts.push({ name, status: 'missing', seconds: 0, exitCode: null });
        continue;
      }
      const t0 = Date.now();
      const { code, seconds } = await run(name, env);
      const file = path.join(REPO, 'bench', 'results', `${name}.json`);
      const fresh = existsSync(file) && statSync(file).mtimeMs >= t0;
      // exit 0 without a results file: a helper module rather than a benchmark; listed, not counted as a failure
      scripts.push({ name, status: code !== 0 ? 'failed' : fresh ? 'ok' : 'no-results', seconds, exitCode: code });
      if (code !== 0) {
        rows.push({ bench: name, figure: `exited with code ${code}`, goal: '—', measured: '—', met: false });
        continue;
      }
      if (!fresh) continue;
      rows.push(...rowsFor(name, JSON.parse(readFileSync(file, 'utf8')) as Json));
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }

  const ended = machine();
  console.log(
    `\n${'='.repeat(76)}\nsummary — 1-min load ${started.loadavg1m.toFixed(2)} at start, ${ended.loadavg1m.toFixed(2)} at end on ${started.cpus} cores (a shared machine: figures are medians of noisy runs)\n`,
  );
  printTable(
    ['bench', 'figure', 'goal', 'measured', 'met'],
    rows.map((r) => [r.bench, r.figure, r.goal, r.measured, r.met === null ? '' : r.met ? 'yes' : 'NO']),
    4,
  );
  const missing = scripts.filter((s) => s.status === 'missing').map((s) => s.name);
  if (missing.length) console.log(`\nskipped (not built): ${missing.join(', ')}`);
  const silent = scripts.filter((s) => s.status === 'no-results').map((s) => s.name);
  if (silent.length) console.log(`ran but wrote no bench/results/<name>.json (helpers?): ${silent.join(', ')}`);
  console.log(
    `\ntimes: ${scripts
      .filter((s) => s.status !== 'missing')
      .map((s) => `${s.name} ${s.seconds.toFixed(0)} s`)
      .join(', ')}`,
  );
  const out = writeResults('summary', {
    bench: 'summary',
    date: new Date().toISOString(),
    machine: { ...started, loadavg1mAtEnd: ended.loadavg1m },
    scripts,
    rows,
    goalsMet: rows.filter((r) => r.met === true).length,
    goalsMissed: rows.filter((r) => r.met === false).length,
  });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
  if (scripts.some((s) => s.status === 'failed')) process.exitCode = 1;
}

await main();
