// The measuring half of qmd-compare.ts: the tldr queries, a timed child process, latency and recall figures, and the
// rows run-all.ts prints. No tool is started here.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { REPO, median, pct } from './harness.js';

const QRELS = path.join(REPO, 'bench', 'qrels', 'queries.json');

// ---- the corpus, the queries ----

export interface Query {
  id: string;
  query: string;
  kind: 'paraphrase' | 'keyword';
  relevant: Array<{ path: string }>;
}

export function tldrQueries(): Query[] {
  const all = JSON.parse(readFileSync(QRELS, 'utf8')) as Query[];
  return all.filter((q) => q.relevant.every((r) => r.path.startsWith('tldr/')));
}

// ---- measuring ----

export async function timeProcess(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').slice(-5).join('\n')}`));
      else resolve({ ms: performance.now() - t0, stdout: out });
    });
  });
}

export function fileMB(f: string): number {
  let size = 0;
  for (const s of ['', '-wal']) if (existsSync(f + s)) size += statSync(f + s).size;
  return size / 2 ** 20;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

export interface LatencyRow {
  what: string;
  queries: number;
  rounds: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Per-query timings over rounds → p50/p95/mean per round, median over rounds. */
export function latency(what: string, rounds: number[][]): LatencyRow {
  return {
    what,
    queries: rounds[0]?.length ?? 0,
    rounds: rounds.length,
    p50: median(rounds.map((r) => pct(r, 50))),
    p95: median(rounds.map((r) => pct(r, 95))),
    mean: median(rounds.map((r) => r.reduce((a, b) => a + b, 0) / r.length)),
  };
}

export interface Quality {
  recallAt5: number;
  mrrAt10: number;
  empty: number; // queries with no result at all
}

export function quality(queries: Query[], results: string[][]): Quality {
  let hit = 0;
  let rr = 0;
  let empty = 0;
  queries.forEach((q, i) => {
    const notes = [...new Set(results[i] ?? [])];
    if (notes.length === 0) empty++;
    const want = new Set(q.relevant.map((r) => r.path));
    const r = notes.findIndex((p) => want.has(p));
    if (r >= 0 && r < 5) hit++;
    if (r >= 0 && r < 10) rr += 1 / (r + 1);
  });
  return { recallAt5: hit / queries.length, mrrAt10: rr / queries.length, empty };
}

/** Rows for bench/run-all.ts: each figure beside its qmd reference from this run (no goals: these are to read). */
export function summaryRows(
  indexing: Array<{ what: string; seconds: number }>,
  lat: LatencyRow[],
  qual: Record<string, Quality>,
  n: number,
): Array<{ figure: string; goal: string; measured: string; met: null }> {
  const sec = (prefix: string) => indexing.find((r) => r.what.startsWith(prefix))?.seconds.toFixed(1) ?? '–';
  const p50 = (what: string) => lat.find((r) => r.what === what)?.p50.toFixed(1) ?? '–';
  const r5 = (k: string) => (qual[k] ? `${(qual[k]!.recallAt5 * 100).toFixed(0)}%` : '–');
  return [
    {
      figure: 'tldr keyword indexing: qmd collection add / memvault keyword-only (s)',
      goal: '—',
      measured: `${sec('qmd collection add')} / ${sec('memvault index, keyword-only')}`,
      met: null,
    },
    { figure: 'tldr indexing with use-lite vectors, memvault (s)', goal: '—', measured: sec('memvault index, use-lite'), met: null },
    {
      figure: 'search p50 over HTTP: qmd lex / memvault bm25 / memvault hybrid (ms)',
      goal: '—',
      measured: `${p50('qmd lex, HTTP (mcp --http POST /search)')} / ${p50('memvault bm25, HTTP')} / ${p50('memvault hybrid, HTTP')}`,
      met: null,
    },
    {
      figure: 'search p50 per CLI call: qmd search / memvault search bm25, no daemon (ms)',
      goal: '—',
      measured: `${p50('qmd search, CLI (bin/qmd launcher)')} / ${p50('memvault search --mode bm25, CLI direct (no daemon)')}`,
      met: null,
    },
    {
      figure: `recall@5 on ${n} tldr queries: qmd lex / memvault bm25 / memvault hybrid`,
      goal: '—',
      measured: `${r5('qmd searchLex')} / ${r5('memvault bm25')} / ${r5('memvault hybrid')}`,
      met: null,
    },
  ];
}
