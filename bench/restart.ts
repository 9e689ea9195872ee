// Restart over 4,612 and over 20,000 unchanged notes: new Daemon → caught up and → first search answered, beside the raw scan and index open.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/restart.js [--runs 5] [--big 20000] [--index-cache DIR]
// Reuses the indexed tldr vault from --index-cache (run-all shares the one bench/edit-latency built), or indexes it
// first (minutes; not part of the figure); the big vault (tldr copied into folders up to --big notes; 0 skips it) is
// built once beside it. Each run: the reference costs measured just before it — scanVault (walk + stat, what the
// watcher's reconcile does) and opening the index read-only and reading every document's stats — then a serve-mode
// daemon from `new Daemon` until whenCaughtUp() and until a hybrid search over HTTP answers with hits (issued as
// soon as the gateway's port is on the board). A restart must embed nothing and re-read no note: embedCalls and
// filesDone must both stay 0. Medians; prints a table per vault, writes bench/results/restart.json.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openIndex } from '../actors/store-writer/schema.js';
import { IndexReader } from '../actors/store-writer/index-reader.js';
import { SOURCE_VAULT } from '../messages/common.js';
import { makeIgnore, scanVault } from '../actors/watcher/scan.js';
import {
  BenchRoot,
  configFor,
  corpusFiles,
  CORPORA,
  indexCacheDir,
  intArg,
  machine,
  median,
  newDaemon,
  printTable,
  SearchClient,
  tldrIndex,
  until,
  writeResults,
} from './harness.js';

const QUERY = 'extract files from a compressed tar archive';
/** What each actor's readiness means, for the table; an actor not listed (added later) is shown by its id. */
const CHILD_LABEL: Record<string, string> = {
  store: 'store writer ready',
  embedder: 'embedder actor ready',
  chunker: 'chunker ready',
  watcher: 'watcher ready (boot reconcile done)',
  gateway: 'gateway listening (its query model loaded)',
  git: 'git writer ready (repository opened)',
  'embedder pool': 'embedder pool loaded the model (2 threads)',
};

interface Run {
  scanMs: number;
  openIndexMs: number;
  /** new Daemon → start() resolved (every actor's init done, gateway listening) */
  startMs: number;
  caughtUpMs: number;
  /** CPU time of the whole process (every thread, user + system) from new Daemon to caught up */
  cpuToCaughtUpMs: number;
  firstSearchMs: number;
  /** new Daemon → each actor's init finished (the supervisors start them one after another, in this order) */
  childReadyMs: Record<string, number>;
  embedCalls: number;
  filesDone: number;
  chunksIndexed: number;
  hits: number;
  degraded: string | null;
}

interface Scenario {
  vault: string;
  dataDir: string;
  notes: number;
  chunks: number;
  corpus: string;
  indexReused: boolean;
}

/** `runs` restarts of a serve-mode daemon over an unchanged indexed vault; medians and every run. */
async function measure(root: BenchRoot, t: Scenario, runs: number) {
  const started = machine();
  const cfg = configFor(root, t);
  const ignore = makeIgnore(cfg.watcher.ignore);
  const dbFile = path.join(t.dataDir, 'index.sqlite');
  const out: Run[] = [];
  for (let r = 0; r < runs; r++) {
    let t0 = performance.now();
    const scan = scanVault(t.vault, ignore);
    const scanMs = performance.now() - t0;
    t0 = performance.now();
    const db = openIndex(dbFile, { readonly: true });
    const docs = new IndexReader(db).documentStats(SOURCE_VAULT).size;
    db.close();
    const openIndexMs = performance.now() - t0;
    if (docs !== scan.files.length) console.error(`  note: ${scan.files.length} notes on disk, ${docs} documents indexed`);

    const childReadyMs: Record<string, number> = {};
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const d = newDaemon(cfg, 'serve');
    d.onSupervisor((e) => {
      // nested supervisors report too ('ingest'): only actors, which have handles
      if (e.type === 'supervisor.child_started' && e.child in d.handles) childReadyMs[e.child] ??= performance.now() - t0;
    });
    // the board, not the actor's start: the embedder may report started before its pool has loaded the model
    let stopped = false;
    void until(() => stopped || d.board.get('embedderState') >= 1).then(() => {
      if (!stopped) childReadyMs['embedder pool'] = performance.now() - t0;
    });
    const clients: SearchClient[] = []; // filled from a callback: an array, which TS does not narrow to null
    try {
      // both waited on from the start, not after start(): whichever of the gateway and the ingest pipeline the
      // supervisor starts first may be ready before start() resolves
      const caught = d.whenCaughtUp().then(() => {
        const c = process.cpuUsage(cpu0);
        return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
      });
      const searched = until(() => d.board.get('gatewayPort') > 0).then(async () => {
        const client = SearchClient.forDaemon(d, cfg);
        clients.push(client);
        const res = await client.search(QUERY, 'hybrid');
        return { res, ms: performance.now() - t0 };
      });
      await d.start();
      const startMs = performance.now() - t0;
      const [s, c] = await Promise.all([searched, caught]);
      const run: Run = {
        scanMs,
        openIndexMs,
        startMs,
        caughtUpMs: c.ms,
        cpuToCaughtUpMs: c.cpuMs,
        firstSearchMs: s.ms,
        childReadyMs,
        embedCalls: d.board.get('embedCalls'),
        filesDone: d.board.get('filesDone'),
        chunksIndexed: d.board.get('chunksIndexed'),
        hits: s.res.results.length,
        degraded: s.res.degraded,
      };
      out.push(run);
      console.error(
        `  ${t.notes} notes, restart ${r + 1}/${runs}: caught up ${c.ms.toFixed(0)} ms, first search ${s.ms.toFixed(0)} ms (${run.hits} hits, embedCalls ${run.embedCalls}, filesDone ${run.filesDone})`,
      );
    } finally {
      stopped = true;
      for (const c of clients) c.close();
      await d.stop('bench restart done', 0);
    }
  }

  const med = (f: (r: Run) => number): number => median(out.map(f));
  const children = Object.keys(out[0]?.childReadyMs ?? {}); // in the order they became ready
  return {
    machine: { ...started, loadavg1mAtEnd: machine().loadavg1m },
    vault: { corpus: t.corpus, notes: t.notes, chunks: t.chunks, indexReused: t.indexReused },
    runs,
    query: QUERY,
    medians: {
      scanMs: med((r) => r.scanMs),
      openIndexMs: med((r) => r.openIndexMs),
      startMs: med((r) => r.startMs),
      caughtUpMs: med((r) => r.caughtUpMs),
      cpuToCaughtUpMs: med((r) => r.cpuToCaughtUpMs),
      firstSearchMs: med((r) => r.firstSearchMs),
      caughtUpAndSearchedMs: med((r) => Math.max(r.caughtUpMs, r.firstSearchMs)),
      childReadyMs: Object.fromEntries(children.map((c) => [c, med((r) => r.childReadyMs[c] ?? NaN)])),
    },
    noWork: out.every((r) => r.embedCalls === 0 && r.filesDone === 0),
    answeredHybrid: out.every((r) => r.hits > 0 && r.degraded === null),
    runsDetail: out,
  };
}

type Measured = Awaited<ReturnType<typeof measure>>;

function report(r: Measured, goalMs: number): void {
  const m = r.medians;
  console.log(`\nrestart over ${r.vault.notes} unchanged notes (${r.vault.chunks} chunks), median of ${r.runs}`);
  console.log(
    `(machine shared: 1-min load ${r.machine.loadavg1m.toFixed(2)} at start, ${r.machine.loadavg1mAtEnd.toFixed(2)} at end, ${r.machine.cpus} cores; ${r.machine.cpu})\n`,
  );
  const children = Object.keys(m.childReadyMs);
  printTable(
    ['what', 'ms'],
    [
      ['reference: scanVault (walk + stat every note)', m.scanMs.toFixed(1)],
      ["reference: open the index + read every document's stats", m.openIndexMs.toFixed(1)],
      ...children.map((c, i) => [
        `${i === 0 ? 'new Daemon' : '          '} → ${CHILD_LABEL[c] ?? `${c} ready`}`,
        (m.childReadyMs[c] ?? NaN).toFixed(0),
      ]),
      ['new Daemon → whenCaughtUp()', m.caughtUpMs.toFixed(0)],
      [`  CPU time meanwhile (every thread; ${r.machine.cpus} cores give ${r.machine.cpus} ms a ms)`, m.cpuToCaughtUpMs.toFixed(0)],
      ['new Daemon → first hybrid search answered over HTTP', m.firstSearchMs.toFixed(0)],
      ['new Daemon → both', m.caughtUpAndSearchedMs.toFixed(0)],
    ],
  );
  console.log(
    `\nembedCalls = 0 and filesDone = 0 on every restart: ${r.noWork ? 'yes' : 'NO'}; every first search answered in hybrid mode with hits: ${r.answeredHybrid ? 'yes' : 'NO'}`,
  );
  const both = m.caughtUpAndSearchedMs;
  console.log(
    `goal ≤ ${goalMs / 1000} s to caught up and searchable: ${both <= goalMs && r.noWork ? 'met' : 'not met'} (${both.toFixed(0)} ms)`,
  );
}

/**
 * A vault of `notes` notes: the tldr corpus copied into folders c0/, c1/, … until there are that many. Its index is
 * built once (kept beside the shared tldr index when there is a cache folder); copies share their chunks' text, so
 * the embedder reuses their vectors by chunk hash and the build takes minutes, not an hour.
 */
async function bigIndex(root: BenchRoot, notes: number): Promise<Scenario> {
  const cache = indexCacheDir();
  const base = cache ? `${cache}-big-${notes}` : path.join(root.dir, `big-${notes}`);
  const vault = path.join(base, 'vault');
  const dataDir = path.join(base, 'data');
  const metaFile = path.join(base, 'meta.json');
  if (cache && existsSync(metaFile)) return { ...(JSON.parse(readFileSync(metaFile, 'utf8')) as Scenario), indexReused: true };
  rmSync(base, { recursive: true, force: true });
  const files = corpusFiles('tldr-common');
  for (let i = 0; i < notes; i++) {
    const dir = path.join(vault, `c${Math.floor(i / files.length)}`);
    if (i % files.length === 0) mkdirSync(dir, { recursive: true });
    const f = files[i % files.length]!;
    copyFileSync(path.join(CORPORA, 'tldr-common', f), path.join(dir, f));
  }
  console.error(`  indexing a ${notes}-note vault (tldr copied into folders; vectors reused by chunk hash)…`);
  const d = newDaemon(root.config(vault, dataDir), 'serve');
  const t0 = performance.now();
  try {
    await d.start();
    await d.whenCaughtUp();
    const s: Scenario = {
      vault,
      dataDir,
      notes: d.board.get('filesDone'),
      chunks: d.board.get('chunksIndexed'),
      corpus: `tldr-common ×${Math.ceil(notes / files.length)}`,
      indexReused: false,
    };
    writeFileSync(metaFile, JSON.stringify(s, null, 2) + '\n');
    console.error(`  indexed ${s.notes} notes, ${s.chunks} chunks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return s;
  } finally {
    await d.stop('bench index built', 0);
  }
}

async function main(): Promise<void> {
  const runs = intArg('runs', 5);
  const bigNotes = intArg('big', 20_000, 0);
  const root = await BenchRoot.create('restart');
  try {
    const t = await tldrIndex(root, 'restart');
    const tldr = await measure(
      root,
      { vault: t.vault, dataDir: t.dataDir, notes: t.meta.files, chunks: t.meta.chunks, corpus: 'tldr-common', indexReused: t.reused },
      runs,
    );
    report(tldr, 1000);
    const big = bigNotes > 0 ? await measure(root, await bigIndex(root, bigNotes), runs) : null;
    if (big) report(big, 3000);
    const result = {
      bench: 'restart',
      date: new Date().toISOString(),
      ...tldr,
      goal: { caughtUpAndSearchedMs: 1000, embedCalls: 0, filesDone: 0 },
      big: big ? { ...big, goal: { caughtUpAndSearchedMs: 3000 } } : null,
    };
    console.log(`wrote ${path.relative(process.cwd(), writeResults('restart', result))}`);
  } finally {
    root.cleanup();
  }
}

await main();
