// Indexing throughput per embedding provider on this machine: the default use-lite beside the onnx provider running
// generated sentence-transformers exports of each tokenizer kind (BERT WordPiece, SentencePiece/Unigram, byte-level
// BPE), each fetched from a loopback hub beforehand (`models pull`'s code path), so the runs time loading from the
// cache and indexing, not the download.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/provider-throughput.js [--files 300] [--runs 3] [--dim 384]
// The generated models are one embedding layer and one dense layer (no attention): their figures measure memvault's
// side — tokenizer, chunker, pool, store — not what a real 33M-parameter model costs; use-lite is the same-run
// reference. Providers run round-robin within each round, so a load that drifts hits all alike; medians of the rounds.
import path from 'node:path';
import { ensureHubModel } from '../actors/embedder/providers/hub.js';
import { makeExport, type TokenizerKind } from '../test/embedder/providers/helpers/make-export-fixture.js';
import { FakeHub } from '../test/helpers/fake-hub.js';
import { BenchRoot, corpusFiles, intArg, machine, median, newDaemon, printTable, spread, until, writeResults } from './harness.js';

interface Run {
  ms: number;
  startupMs: number;
  chunks: number;
  files: number;
  cpuMs: number;
}

interface Provider {
  name: string;
  yaml: (hubUrl: string) => string;
  kind: TokenizerKind | null;
}

const PROVIDERS: Provider[] = [
  { name: 'use-lite (default, fp32)', yaml: () => '', kind: null },
  ...(['wordpiece', 'unigram', 'bpe'] as const).map((kind) => ({
    name: `onnx ${kind}`,
    kind,
    yaml: (hubUrl: string) => `embedder:\n  provider: onnx\n  onnx:\n    hub: bench/${kind}\n    hub_url: ${hubUrl}\n`,
  })),
];

async function run(root: BenchRoot, vault: string, p: Provider, hub: FakeHub): Promise<Run> {
  const dataDir = root.dataDir();
  const cfg = root.config(vault, dataDir, p.yaml(hub.url));
  if (p.kind) {
    // fetched ahead, as `memvault models pull` does: the timed start loads it from the cache (hashes checked)
    const spec = {
      repo: `bench/${p.kind}`,
      revision: 'main',
      file: null,
      sha256: {},
      modelSha256: null,
      hubUrl: hub.url,
      modelsDir: path.join(dataDir, 'models'),
    };
    await ensureHubModel(spec);
  }
  const d = newDaemon(cfg, 'oneshot');
  let readyAt = Number.NaN;
  let stopped = false;
  void until(() => stopped || d.board.get('embedderState') >= 1).then(() => (readyAt = performance.now()));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await d.start();
    await d.whenCaughtUp();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    if (d.board.get('embedderState') !== 1) throw new Error(`${p.name}: the embedder is not ready (state ${d.board.get('embedderState')})`);
    return {
      ms,
      startupMs: readyAt - t0,
      chunks: d.board.get('chunksIndexed'),
      files: d.board.get('filesDone'),
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    stopped = true;
    await d.stop('bench run done', 0);
  }
}

async function main(): Promise<void> {
  const nFiles = intArg('files', 300);
  const rounds = intArg('runs', 3);
  const dim = intArg('dim', 384);
  const files = spread(corpusFiles('tldr-common'), nFiles);
  const root = await BenchRoot.create('providers');
  const hub = await FakeHub.start();
  const started = machine();
  const runs = new Map<string, Run[]>(PROVIDERS.map((p) => [p.name, []]));
  const modelBytes: Record<string, number> = {};
  try {
    for (const kind of ['wordpiece', 'unigram', 'bpe'] as const) {
      const exp = makeExport(kind, { dim, maxSeqLength: 256 });
      modelBytes[kind] = exp['onnx/model.onnx']!.length;
      hub.publish(`bench/${kind}`, exp);
    }
    const vault = root.vault('tldr-common', files);
    await run(root, vault, PROVIDERS[0]!, hub); // warm-up: module loading, JIT, page cache
    for (let r = 0; r < rounds; r++) {
      // rotate the order each round so no provider always runs first or last
      const order = PROVIDERS.map((_, i) => PROVIDERS[(i + r) % PROVIDERS.length]!);
      for (const p of order) {
        const x = await run(root, vault, p, hub);
        runs.get(p.name)!.push(x);
        console.error(
          `  round ${r + 1}/${rounds}: ${p.name}: ${((x.chunks / x.ms) * 1000).toFixed(1)} chunks/s, ${x.chunks} chunks, start-up ${x.startupMs.toFixed(0)} ms`,
        );
      }
    }
  } finally {
    await hub.close();
    root.cleanup();
  }

  const ref = runs.get(PROVIDERS[0]!.name)!;
  const refFilesPerS = median(ref.map((x) => (x.files / x.ms) * 1000));
  const rows = PROVIDERS.map((p) => {
    const xs = runs.get(p.name)!;
    const filesPerS = median(xs.map((x) => (x.files / x.ms) * 1000));
    return {
      provider: p.name,
      modelBytes: p.kind ? (modelBytes[p.kind] ?? null) : null,
      chunks: median(xs.map((x) => x.chunks)),
      wallMs: median(xs.map((x) => x.ms)),
      startupMs: median(xs.map((x) => x.startupMs)),
      chunksPerSec: median(xs.map((x) => (x.chunks / x.ms) * 1000)),
      filesPerSec: filesPerS,
      filesPerSecVsUseLite: filesPerS / refFilesPerS,
      chunksPerCpuSecond: median(xs.map((x) => (x.chunks / x.cpuMs) * 1000)),
      runs: xs,
    };
  });
  const result = {
    bench: 'provider-throughput',
    date: new Date().toISOString(),
    machine: { ...started, loadavg1mAtEnd: machine().loadavg1m },
    subset: { corpus: 'tldr-common', files: files.length, generatedModelDim: dim, generatedWindow: 254 },
    rounds,
    providers: rows,
    // rows for bench/run-all's table
    summary: rows.map((x) => ({
      figure: `${x.provider}: indexing ${files.length} tldr pages, one-shot daemon (generated model: no attention)`,
      goal: '—',
      measured: `${x.chunksPerSec.toFixed(1)} chunks/s, ${x.filesPerSec.toFixed(1)} files/s = ${x.filesPerSecVsUseLite.toFixed(2)}× use-lite`,
      met: null,
    })),
  };
  console.log(
    `\nindexing throughput per provider, ${files.length} tldr pages, one-shot daemon start() → caught up, median of ${rounds} rounds`,
  );
  console.log(
    `(${started.cpu ?? 'cpu unknown'}, ${started.cpus} cores; 1-min load ${started.loadavg1m.toFixed(2)} at start, ${result.machine.loadavg1mAtEnd.toFixed(2)} at end)\n`,
  );
  printTable(
    ['provider', 'model file', 'chunks', 'wall ms', 'start-up ms', 'chunks/s', 'files/s', 'files/s vs use-lite'],
    rows.map((x) => [
      x.provider,
      x.modelBytes === null ? '(npm package)' : `${(x.modelBytes / 1024 / 1024).toFixed(1)} MB`,
      String(x.chunks),
      x.wallMs.toFixed(0),
      x.startupMs.toFixed(0),
      x.chunksPerSec.toFixed(1),
      x.filesPerSec.toFixed(1),
      x.filesPerSecVsUseLite.toFixed(2),
    ]),
  );
  console.log(
    `\nthe generated onnx models are ${dim}-dim with a 254-token window (use-lite: 512-dim, 128 tokens, so more and shorter chunks); they have no attention layers,`,
  );
  console.log("so these figures are memvault's own cost per tokenizer kind, not a real model's inference time.");
  console.log(`wrote ${path.relative(process.cwd(), writeResults('provider-throughput', result))}`);
}

await main();
