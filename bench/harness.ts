// Shared plumbing for the daemon benchmarks: flags, statistics, temp vaults from the corpora, a real daemon, HTTP search, results.
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../config/load.js';
import { makeLogger } from '../supervisors/runtime/log.js';
import { ensureUseLiteModelFile } from '../actors/embedder/use-lite/build-onnx.js';
import { describeCpuFeatures, readCpuInfo } from '../actors/embedder/use-lite/int8-kernel.js';
import { Daemon } from '../main/daemon.js';
import type { IndexWriter } from '../actors/store-writer/index-writer.js';
import type { FactDraft } from '../messages/common.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'); // dist/bench → repo
import { CORPORA, corpusFiles } from '../test/helpers/corpora.js';
import { gaussian, near, rng, unit } from '../test/helpers/index-fixture.js';

export { CORPORA, corpusFiles }; // one way to find the shared corpora, for tests and benches alike

// ---- flags ----

export function intArg(name: string, fallback: number, min = 1): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < min) throw new RangeError(`--${name} must be an integer of at least ${min}`);
  return v;
}

export function strArg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

// ---- statistics ----

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nearest-rank percentile (p in 0..100), as bench/search-latency.ts computes it, so figures compare. */
export function pct(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

// the deterministic PRNG and vector helpers of the tests' synthetic indexes, for the same data in benches
export { gaussian, near, rng, unit };

export const mb = (bytes: number): number => bytes / 2 ** 20;

/** cpuName(), read once: benches ask again at their end only for the load average beside it. */
let cpu: string | undefined;

/**
 * The CPU's model name and the features that decide the int8 kernel: hosts of this kind all call themselves
 * "AMD EPYC", some with AVX-512 VNNI and some with AVX2 only, so a figure says which kind it came from.
 */
export function cpuName(): string {
  cpu ??= ((): string => {
    const info = readCpuInfo();
    const model = os.cpus()[0]?.model ?? info?.model ?? 'unknown CPU';
    return info ? `${model} (${describeCpuFeatures(info.flags)})` : model;
  })();
  return cpu;
}

export function machine(): { cpus: number; cpu: string; loadavg1m: number; node: string } {
  return { cpus: os.cpus().length, cpu: cpuName(), loadavg1m: os.loadavg()[0]!, node: process.version };
}

// ---- output ----

/** Columns after the first `leftCols` are right-aligned (numbers). */
export function printTable(header: string[], rows: string[][], leftCols = 1): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i < leftCols ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/** Writes bench/results/<name>.json beside the sources (committed with them, for diffing); returns the path. */
export function writeResults(name: string, data: unknown): string {
  const out = path.join(REPO, 'bench', 'results', `${name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(data, null, 2) + '\n');
  return out;
}

/** Person `n` as the fact benches index it: a one-line note `People/Person <n>.md` carrying `facts`, no vectors. */
export function personDoc(n: number, facts: FactDraft[]): Parameters<IndexWriter['upsertDocument']>[0] {
  const title = `Person ${n}`;
  return {
    sourceType: 'vault',
    sourceId: `People/${title}.md`,
    title,
    contentHash: String(n),
    mtimeMs: 1,
    size: 1,
    metadata: {},
    tags: [],
    sensitive: false,
    chunks: [{ seq: 0, content: title, headingPath: [], startLine: 1, endLine: 1, tokenCount: 2, hash: `h${n}`, vector: null }],
    facts,
  };
}

// ---- corpora and temp vaults ----

/** `n` names spread evenly over the sorted list, so a subset is not all one letter of the alphabet. */
export function spread(names: readonly string[], n: number): string[] {
  if (n >= names.length) return [...names];
  return Array.from({ length: n }, (_, i) => names[Math.floor((i * names.length) / n)]!);
}

/**
 * A temp folder holding the built use-lite model once, and any number of vaults + data dirs beside it. Building
 * the ONNX file is a first-install cost (seconds), not an indexing cost: every data dir gets a hard link to it.
 */
export class BenchRoot {
  readonly dir: string;
  readonly modelDir: string;
  #n = 0;

  private constructor(dir: string) {
    this.dir = dir;
    this.modelDir = path.join(dir, 'model-cache');
  }

  static async create(label: string): Promise<BenchRoot> {
    const r = new BenchRoot(mkdtempSync(path.join(os.tmpdir(), `memvault-bench-${label}-`)));
    await ensureUseLiteModelFile(r.modelDir, { format: 'fp32' });
    return r;
  }

  /** An existing root (a child process of a bench reuses its parent's, model included). */
  static at(dir: string): BenchRoot {
    const r = new BenchRoot(dir);
    r.#n = readdirSync(dir).length + 1000; // fresh names, whatever the parent made
    return r;
  }

  /** A vault holding copies of `files` from a corpus folder. */
  vault(folder: 'tldr-common' | 'rust-book', files: readonly string[]): string {
    const dir = path.join(this.dir, `vault-${++this.#n}`);
    mkdirSync(dir, { recursive: true });
    for (const f of files) copyFileSync(path.join(CORPORA, folder, f), path.join(dir, f));
    return dir;
  }

  /**
   * A config like the tests' (listen 127.0.0.1:0, log silent) with an explicit data dir, seeded with the model.
   * `yaml` adds settings; leave it empty to run the defaults (debounce 200 ms, batch 32, 2 threads).
   */
  config(vault: string, dataDir: string, yaml = ''): Config {
    const file = path.join(this.dir, `memvault-${++this.#n}.yaml`);
    writeFileSync(file, `data_dir: ${JSON.stringify(dataDir)}\nlisten: 127.0.0.1:0\nlog:\n  level: silent\n${yaml}`);
    const cfg = loadConfig({ file, vault });
    const models = path.join(dataDir, 'models');
    mkdirSync(models, { recursive: true });
    for (const f of readdirSync(this.modelDir)) {
      if (!f.endsWith('.onnx')) continue;
      const [from, to] = [path.join(this.modelDir, f), path.join(models, f)];
      try {
        linkSync(from, to);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EXDEV')
          copyFileSync(from, to); // another file system: a copy will do
        else if (code !== 'EEXIST') throw err;
      }
    }
    return cfg;
  }

  /** A fresh, empty data dir path under the root (created by the daemon). */
  dataDir(): string {
    return path.join(this.dir, `data-${++this.#n}`);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---- the daemon and its HTTP API ----

export function newDaemon(cfg: Config, mode: 'serve' | 'oneshot'): Daemon {
  return new Daemon(cfg, { mode, log: makeLogger('main', { level: 'silent' }) });
}

export interface SearchReply {
  results: Array<{ path: string; score: number }>;
  mode: string;
  degraded: string | null;
  took_ms: number;
}

/**
 * POSTs `body` as JSON to the daemon on loopback through `agent` (keep-alive node:http: fetch's per-request overhead,
 * ~1 ms, would blur figures of single milliseconds), as agent `who` when given; the status and the body's text.
 */
export function postJson(
  agent: Agent,
  port: number,
  token: string,
  route: string,
  body: unknown,
  who?: string,
): Promise<{ status: number; text: string }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: route,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          ...(who === undefined ? {} : { 'x-memvault-agent': who }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** postJson, answered 200: its body parsed; any other status throws with the route, the status and the body. */
export async function postJsonOk<T>(agent: Agent, port: number, token: string, route: string, body: unknown, who?: string): Promise<T> {
  const r = await postJson(agent, port, token, route, body, who);
  if (r.status !== 200) throw new Error(`${route} answered ${r.status}: ${r.text}`);
  return JSON.parse(r.text) as T;
}

/**
 * A keep-alive HTTP client for /v1/search: node:http rather than fetch, whose per-request overhead (~1 ms) would
 * blur a figure measured in single milliseconds.
 */
export class SearchClient {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(
    readonly port: number,
    readonly token: string,
  ) {}

  static forDaemon(d: Daemon, cfg: Config): SearchClient {
    const port = d.board.get('gatewayPort');
    if (!port) throw new Error('the gateway is not listening (serve mode only)');
    return new SearchClient(port, readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim());
  }

  search(query: string, mode: 'hybrid' | 'bm25' | 'vector', k = 10): Promise<SearchReply> {
    return postJsonOk<SearchReply>(this.#agent, this.port, this.token, '/v1/search', { query, k, mode });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Resolves when `cond` holds, checking every `everyMs` (for board slots, which are shared memory with no event). */
export async function until(cond: () => boolean, everyMs = 1): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, everyMs));
}

/** `n` queries of `words` words, cut from the corpus's sentences (deterministic). */
export function corpusQueries(folder: 'tldr-common' | 'rust-book', n: number, words: number, seed = 3): string[] {
  const r = rng(seed);
  const files = corpusFiles(folder);
  const out: string[] = [];
  while (out.length < n) {
    const f = files[Math.floor(r() * files.length)]!;
    const text = readFileSync(path.join(CORPORA, folder, f), 'utf8');
    const sentences = text
      .split(/\n|(?<=[.!?:])\s+/)
      .map((s) => s.match(/[A-Za-z][A-Za-z'-]*/g) ?? [])
      .filter((w) => w.length >= words);
    if (sentences.length === 0) continue;
    const s = sentences[Math.floor(r() * sentences.length)]!;
    const at = Math.floor(r() * (s.length - words + 1));
    out.push(s.slice(at, at + words).join(' '));
  }
  return out;
}

// ---- the full tldr corpus, indexed: built once, and shared between scripts when run-all gives a cache folder ----

/** Where an indexed tldr vault is kept between scripts: `--index-cache DIR` or MEMVAULT_BENCH_INDEX_CACHE (run-all). */
export function indexCacheDir(): string | null {
  const v = strArg('index-cache', process.env['MEMVAULT_BENCH_INDEX_CACHE'] ?? '');
  return v ? path.resolve(v) : null;
}

/** How the shared index was built, so a script that reuses it can still report the figures of the build. */
export interface IndexMeta {
  builtBy: string;
  date: string;
  files: number;
  chunks: number;
  /** fresh serve-mode daemon: start() → whenCaughtUp() */
  indexMs: number;
  /** process.memoryUsage().rss of the building process (all threads) right after it caught up */
  rssAfterIndexMB: number;
  rssBeforeStartMB: number;
}

export interface TldrIndex {
  vault: string;
  dataDir: string;
  meta: IndexMeta;
  /** true when an earlier script built it; false when this call did. */
  reused: boolean;
}

/**
 * The full tldr corpus (4,612 notes) in a vault with its index. With a cache folder it lives there (in place, so
 * the notes keep the mtimes the index recorded: a copy would make every note look changed on restart) and is
 * built only if missing; without one it is built under `root`. Building runs a fresh serve-mode daemon, records
 * the time and the process's RSS once it caught up, and stops it.
 */
export async function tldrIndex(root: BenchRoot, builtBy: string): Promise<TldrIndex> {
  const cache = indexCacheDir();
  const base = cache ?? path.join(root.dir, 'tldr-index');
  const vault = path.join(base, 'vault');
  const dataDir = path.join(base, 'data');
  const metaFile = path.join(base, 'meta.json');
  if (cache && existsSync(metaFile)) {
    return { vault, dataDir, meta: JSON.parse(readFileSync(metaFile, 'utf8')) as IndexMeta, reused: true };
  }
  rmSync(base, { recursive: true, force: true }); // a half-built cache from an interrupted run
  mkdirSync(vault, { recursive: true });
  const files = corpusFiles('tldr-common');
  for (const f of files) copyFileSync(path.join(CORPORA, 'tldr-common', f), path.join(vault, f));
  const cfg = root.config(vault, dataDir);
  const rssBeforeStartMB = mb(process.memoryUsage().rss);
  console.error(`  indexing ${files.length} tldr notes (a few minutes on a busy 2-core machine)…`);
  const d = newDaemon(cfg, 'serve');
  const t0 = performance.now();
  try {
    await d.start();
    await d.whenCaughtUp();
    const indexMs = performance.now() - t0;
    const meta: IndexMeta = {
      builtBy,
      date: new Date().toISOString(),
      files: d.board.get('filesDone'),
      chunks: d.board.get('chunksIndexed'),
      indexMs,
      rssAfterIndexMB: mb(process.memoryUsage().rss),
      rssBeforeStartMB,
    };
    writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\n');
    console.error(`  indexed ${meta.files} notes, ${meta.chunks} chunks in ${(indexMs / 1000).toFixed(1)} s`);
    return { vault, dataDir, meta, reused: false };
  } finally {
    await d.stop('bench index built', 0);
  }
}

/** A config for an existing data dir (its models folder is already seeded). */
export function configFor(root: BenchRoot, t: { vault: string; dataDir: string }, yaml = ''): Config {
  return root.config(t.vault, t.dataDir, yaml);
}
