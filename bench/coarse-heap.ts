// The gateway's V8 heap per chunk for the coarse index (actors/gateway/coarse-index.ts): what a full load of the bit
// vectors allocates and what stays live, per chunk, beside a reference measured in the same process: a plain
// Map<number, number> of id → slot and a number[] of slot → id for the same ids (the structure it replaced).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/coarse-heap.js [--sizes 5000,40000]
// Each size is a synthetic store (bench/synthetic-store.ts) loaded in a fresh child process started with --expose-gc
// and a 256 MiB new space, so nothing is collected while a load runs: the heap's growth is what the load allocated,
// and after two full GCs what it keeps. Per-chunk figures are the difference between two sizes divided by the
// difference in chunks, so what every load costs once (compiling, statements, the kernel) cancels out. Off-heap
// memory (the WebAssembly memory holding the bits, the typed arrays of ids) is reported apart: it is resident too,
// but outside the heap that V8 grows and collects.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { coarseIndex } from '../actors/gateway/coarse-index.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { ModelInfo } from '../messages/common.js';
import { BenchRoot, intArg, machine, printTable, strArg, writeResults } from './harness.js';
import { buildSyntheticStore, DIM, loadParagraphs } from './synthetic-store.js';

interface Figures {
  n: number;
  allocatedBytes: number;
  liveBytes: number;
  externalBytes: number;
  mapLiveBytes: number;
}

const gc = (): void => {
  const f = (globalThis as { gc?: () => void }).gc;
  if (!f) throw new Error('run the child with --expose-gc');
  f();
  f();
};
const used = (): number => v8.getHeapStatistics().used_heap_size;

/** In the child: one full load of `file`'s bits, then the reference structure for the same ids. */
function measure(file: string): Figures {
  const db = openIndex(file, { readonly: true });
  gc();
  const ext0 = process.memoryUsage().external + process.memoryUsage().arrayBuffers;
  const h0 = used();
  const c = db.transaction(() => coarseIndex(db))();
  const allocatedBytes = used() - h0;
  gc();
  const liveBytes = used() - h0;
  const externalBytes = process.memoryUsage().external + process.memoryUsage().arrayBuffers - ext0;
  const ids = db.prepare('SELECT chunk_id FROM memory_vectors_bit ORDER BY chunk_id').pluck().all() as number[];
  gc();
  const m0 = used();
  const slotOf = new Map<number, number>();
  const idOf: number[] = [];
  for (const id of ids) {
    slotOf.set(id, idOf.length);
    idOf.push(id);
  }
  gc();
  const mapLiveBytes = used() - m0;
  if (slotOf.size !== c?.size) throw new Error(`the index holds ${c?.size} vectors, the store ${slotOf.size}`);
  db.close();
  return { n: ids.length, allocatedBytes, liveBytes, externalBytes, mapLiveBytes };
}

async function main(): Promise<void> {
  const sizes = strArg('sizes', '5000,40000').split(',').map(Number);
  if (sizes.length !== 2 || sizes.some((s) => !Number.isInteger(s) || s <= 0) || sizes[0]! >= sizes[1]!)
    throw new Error('--sizes takes two chunk counts, the smaller first');
  const keep = intArg('keep', 0, 0) === 1;
  const root = await BenchRoot.create('coarse-heap');
  const model: ModelInfo = { provider: 'use-lite', name: 'use-lite', dim: DIM, version: 'bench' };
  const paras = loadParagraphs();
  const self = fileURLToPath(import.meta.url);
  const rows: Figures[] = [];
  try {
    for (const n of sizes) {
      const file = path.join(root.dir, `index-${n}.sqlite`);
      if (!existsSync(file)) buildSyntheticStore(file, n, model, paras);
      const out = execFileSync(
        process.execPath,
        ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256', self, '--child', file],
        {
          encoding: 'utf8',
        },
      );
      rows.push(JSON.parse(out) as Figures);
    }
  } finally {
    if (!keep) root.cleanup();
  }
  const [a, b] = rows as [Figures, Figures];
  const per = (k: keyof Figures): number => (b[k] - a[k]) / (b.n - a.n);
  const m = machine();
  console.log(`\ncoarse index: V8 heap per chunk of a full load (${m.cpu}, ${m.cpus} cores, load ${m.loadavg1m.toFixed(2)})\n`);
  printTable(
    ['chunks', 'heap allocated by the load (MB)', 'heap kept (MB)', 'off-heap (MB)', 'reference Map + array kept (MB)'],
    rows.map((r) => [
      String(r.n),
      ...[r.allocatedBytes, r.liveBytes, r.externalBytes, r.mapLiveBytes].map((x) => (x / 2 ** 20).toFixed(2)),
    ]),
  );
  console.log(
    `\nper chunk: ${per('allocatedBytes').toFixed(0)} bytes allocated, ${per('liveBytes').toFixed(0)} kept on the heap, ` +
      `${per('externalBytes').toFixed(0)} off the heap (64 of them the bits); the reference Map + array kept ${per('mapLiveBytes').toFixed(0)}`,
  );
  const file = writeResults('coarse-heap', { bench: 'coarse-heap', date: new Date().toISOString(), machine: m, rows });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

const child = process.argv.indexOf('--child');
if (child >= 0) process.stdout.write(JSON.stringify(measure(process.argv[child + 1] ?? '')));
else await main();
