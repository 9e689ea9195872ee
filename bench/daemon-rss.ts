// Resident memory of a real `memvault start` process (as `make run` starts it) while it really indexes real notes.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/daemon-rss.js [--cases example,tldr,big] [--chunks 100000]
//      [--searches 1000] [--release-ms 15000] [--yaml 'heap: {idle_gc_ms: 0}']
// Each case is a fresh vault and data dir, and a daemon process started the way the Makefile's `run` target starts
// it (`node bin/memvault start`, glibc's allocator told to return freed memory: the env below is the Makefile's):
//   example  the bundled example vault (23 notes): the idle figure
//   tldr     the tldr corpus (4,612 notes, ~13.5k chunks)
//   big      tldr + the Rust book copied into folders c0/, c1/, … until ≥ --chunks chunks; every line of copy i > 0
//            ends with ` v<i>`, so no chunk's hash repeats and every chunk is really embedded by the real model
// The bench polls /v1/status until the vault is indexed (every note a document, every chunk a vector, nothing
// pending), and reads the daemon's /proc/<pid>/status (VmRSS, VmHWM) and /proc/<pid>/stat (CPU) at each stage:
// 5 s after indexing, after the bulk pool's idle release (--release-ms), after --searches searches (hybrid, bm25 and
// vector in turn, 10-word queries cut from the corpora). Where the memory is: smaps summed by mapping, and each actor
// thread's V8 heap from /metrics. Prints a table, writes bench/results/daemon-rss.json. --yaml adds settings to each
// daemon's config file (to compare one knob, e.g. the `heap:` ones, in alternate runs).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  BenchRoot,
  CORPORA,
  corpusQueries,
  intArg,
  machine,
  median,
  printTable,
  REPO,
  SearchClient,
  strArg,
  writeResults,
} from './harness.js';
import { parseMetrics, readProc, smapsByMapping, type ProcFigures } from './proc-memory.js';
import type { IndexState } from '../actors/gateway/index-view.js';

/** The Makefile's `run` target starts the daemon with these (README, Memory). */
export const MAKE_RUN_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

type CaseName = 'example' | 'tldr' | 'big';

/** Copies the corpus folder's notes into `dir`; with `mark`, every non-blank line but code fences ends with it. */
function copyNotes(from: string, dir: string, mark: string): number {
  mkdirSync(dir, { recursive: true });
  const files = readdirSync(from).filter((f) => f.endsWith('.md'));
  for (const f of files) {
    if (!mark) {
      copyFileSync(path.join(from, f), path.join(dir, f));
      continue;
    }
    const text = readFileSync(path.join(from, f), 'utf8')
      .split('\n')
      .map((l) => (l.trim() === '' || l.trimStart().startsWith('```') || l.startsWith('---') ? l : `${l} ${mark}`))
      .join('\n');
    writeFileSync(path.join(dir, f), text);
  }
  return files.length;
}

/** A vault for the case; `estChunks` is what one copy of tldr + the Rust book yields (for the big case's copy count). */
function makeVault(root: BenchRoot, kind: CaseName, chunks: number): { vault: string; notes: number } {
  const vault = path.join(root.dir, `vault-${kind}`);
  let notes = 0;
  if (kind === 'example') {
    cpSync(path.join(REPO, 'examples', 'vault'), vault, { recursive: true });
    notes = readdirSync(vault, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
  } else if (kind === 'tldr') {
    notes = copyNotes(path.join(CORPORA, 'tldr-common'), vault, '');
  } else {
    const perCopy = 16_500; // tldr ~13.5k + the Rust book ~3k chunks
    const copies = Math.max(1, Math.ceil(chunks / perCopy));
    for (let i = 0; i < copies; i++) {
      const mark = i === 0 ? '' : `v${i}`;
      notes += copyNotes(path.join(CORPORA, 'tldr-common'), path.join(vault, `c${i}`, 'tldr'), mark);
      notes += copyNotes(path.join(CORPORA, 'rust-book'), path.join(vault, `c${i}`, 'rust'), mark);
    }
  }
  execFileSync('git', ['init', '-q', vault]); // as `make run` does: its own repository
  return { vault, notes };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

interface Status {
  index: Pick<IndexState, 'documents' | 'chunks' | 'vectors' | 'pending' | 'in_flight' | 'files_total' | 'reconciled'>;
}

async function getJson<T>(port: number, token: string, p: string): Promise<T> {
  const r = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) throw new Error(`${p}: ${r.status}`);
  return p === '/metrics' ? ((await r.text()) as T) : ((await r.json()) as T);
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Stage extends ProcFigures {
  atS: number;
}

interface CaseResult {
  case: CaseName;
  notes: number;
  chunks: number;
  indexSeconds: number;
  chunksPerSecond: number;
  cpuSecondsIndexing: number;
  stages: Record<'started' | 'indexed' | 'afterIndex5s' | 'afterRelease' | 'afterSearches', Stage>;
  peakMB: number;
  searches: number;
  searchP50Ms: Record<string, number>;
  degraded: number;
  smapsAfterSearchesMB: Record<string, number>;
  heapsAfterSearchesMB: Record<string, number>;
  threads: number;
}

async function runCase(
  root: BenchRoot,
  kind: CaseName,
  chunks: number,
  searches: number,
  releaseMs: number,
  yaml: string,
): Promise<CaseResult> {
  const { vault, notes } = makeVault(root, kind, chunks);
  const dataDir = path.join(root.dir, `data-${kind}`);
  const port = await freePort();
  const cfg = root.config(vault, dataDir); // seeds the data dir with the built model
  const file = cfg.config_file ?? '';
  writeFileSync(file, `data_dir: ${JSON.stringify(dataDir)}\nlisten: 127.0.0.1:${port}\nlog:\n  level: warn\n${yaml ? `${yaml}\n` : ''}`);
  console.error(`  ${kind}: ${notes} notes; starting the daemon…`);
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO, 'bin', 'memvault'), 'start', '--vault', vault, '--config', file], {
    cwd: REPO,
    env: { ...process.env, ...MAKE_RUN_ENV },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid;
  if (!pid) throw new Error('the daemon did not start');
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const t0 = performance.now();
  const at = (): number => (performance.now() - t0) / 1000;
  const stage = (): Stage => ({ ...readProc(pid), atS: at() });
  try {
    let token = '';
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the daemon exited ${child.exitCode}`);
      try {
        token = readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
        await getJson<Status>(port, token, '/v1/status');
        break;
      } catch {
        await pause(200);
      }
    }
    const started = stage();
    let s: Status['index'];
    let lastLog = 0;
    let quiet = { key: '', since: 0 };
    for (;;) {
      s = (await getJson<Status>(port, token, '/v1/status')).index;
      const idle = s.reconciled && s.pending === 0 && s.in_flight === 0 && s.vectors >= s.chunks && s.chunks > 0;
      // every note the watcher counted is a document; or (a note the chunker skips) nothing has changed for 10 s
      const key = `${s.documents}/${s.chunks}/${s.vectors}`;
      if (key !== quiet.key) quiet = { key, since: at() };
      if (idle && (s.documents >= s.files_total || at() - quiet.since > 10)) break;
      if (at() - lastLog > 60) {
        lastLog = at();
        console.error(
          `    ${at().toFixed(0)} s: ${s.documents}/${notes} notes, ${s.vectors} vectors, RSS ${readProc(pid).rssMB.toFixed(0)} MB`,
        );
      }
      await pause(500);
    }
    const indexed = stage();
    const indexSeconds = indexed.atS;
    console.error(`  ${kind}: ${s.chunks} chunks indexed in ${indexSeconds.toFixed(0)} s, RSS ${indexed.rssMB.toFixed(0)} MB`);
    await pause(5000);
    const afterIndex5s = stage();
    await pause(Math.max(0, releaseMs - 5000));
    const afterRelease = stage();
    const client = new SearchClient(port, token);
    const modes = ['hybrid', 'bm25', 'vector'] as const;
    const took: Record<string, number[]> = { hybrid: [], bm25: [], vector: [] };
    let degraded = 0;
    const half = Math.ceil(searches / 2);
    const qs = [...corpusQueries('tldr-common', half, 10), ...corpusQueries('rust-book', half, 10)];
    try {
      for (let i = 0; i < searches; i++) {
        const mode = modes[i % 3]!;
        const q0 = performance.now();
        const r = await client.search(qs[i % qs.length]!, mode);
        took[mode]!.push(performance.now() - q0);
        if (r.degraded !== null) degraded++;
      }
    } finally {
      client.close();
    }
    const afterSearches = stage();
    const line = [started, indexed, afterIndex5s, afterRelease, afterSearches].map((x) => x.rssMB.toFixed(0)).join(' / ');
    console.error(
      `  ${kind}: RSS started / indexed / +5 s / released / after searches: ${line} MB, peak ${afterSearches.hwmMB.toFixed(0)}`,
    );
    const metrics = parseMetrics(await getJson<string>(port, token, '/metrics'));
    return {
      case: kind,
      notes: s.documents,
      chunks: s.chunks,
      indexSeconds,
      chunksPerSecond: s.chunks / indexSeconds,
      cpuSecondsIndexing: indexed.cpuSeconds,
      stages: { started, indexed, afterIndex5s, afterRelease, afterSearches },
      peakMB: afterSearches.hwmMB,
      searches,
      searchP50Ms: Object.fromEntries(Object.entries(took).map(([m, xs]) => [m, median(xs)])),
      degraded,
      smapsAfterSearchesMB: smapsByMapping(pid),
      heapsAfterSearchesMB: metrics,
      threads: readdirSync(`/proc/${pid}/task`).length,
    };
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, pause(30_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const cases = strArg('cases', 'example,tldr,big').split(',').filter(Boolean) as CaseName[];
  const chunks = intArg('chunks', 100_000);
  const searches = intArg('searches', 1000);
  const releaseMs = intArg('release-ms', 15_000); // embedder.release_after_ms (default 10 s) and a margin
  const yaml = strArg('yaml', '');
  const started = machine();
  const root = await BenchRoot.create('rss');
  const results: CaseResult[] = [];
  try {
    for (const c of cases) results.push(await runCase(root, c, chunks, searches, releaseMs, yaml));
  } finally {
    root.cleanup();
  }
  const end = machine();
  const f = (x: number): string => x.toFixed(0);
  console.log(`\nresident memory of \`memvault start\` (MB, /proc/<pid>/status), started as \`make run\` starts it`);
  console.log(
    `(${started.cpu}, ${started.cpus} cores; 1-min load ${started.loadavg1m.toFixed(2)} at start, ${end.loadavg1m.toFixed(2)} at end)\n`,
  );
  printTable(
    ['vault', 'notes', 'chunks', 'chunks/s', 'CPU s', 'started', 'indexed', '+5 s', 'pool released', `after ${searches} searches`, 'peak'],
    results.map((r) => [
      r.case,
      String(r.notes),
      String(r.chunks),
      r.chunksPerSecond.toFixed(1),
      r.cpuSecondsIndexing.toFixed(0),
      f(r.stages.started.rssMB),
      f(r.stages.indexed.rssMB),
      f(r.stages.afterIndex5s.rssMB),
      f(r.stages.afterRelease.rssMB),
      f(r.stages.afterSearches.rssMB),
      f(r.peakMB),
    ]),
  );
  for (const r of results) {
    console.log(`\n${r.case}: where the RSS is after the searches (MB; smaps by mapping, ${r.threads} threads)`);
    printTable(
      ['mapping', 'MB'],
      Object.entries(r.smapsAfterSearchesMB).map(([k, v]) => [k, v.toFixed(1)]),
    );
    console.log(`${r.case}: V8 heap per actor thread (MB, from /metrics; the pool threads do not report)`);
    const threads = [...new Set(Object.keys(r.heapsAfterSearchesMB).map((k) => k.split(' ')[0]!))];
    const heap = (k: string): string => r.heapsAfterSearchesMB[k]?.toFixed(1) ?? '';
    printTable(
      ['thread', 'used', 'total'],
      threads.map((th) => [th, heap(`${th} used`), heap(`${th} total`)]),
    );
    console.log(
      `search p50 (ms): ${Object.entries(r.searchP50Ms)
        .map(([m, v]) => `${m} ${v.toFixed(1)}`)
        .join(', ')}; degraded ${r.degraded}`,
    );
  }
  const goal: Record<CaseName, number> = { example: 250, tldr: 350, big: 400 };
  for (const r of results) {
    const rss = Math.max(r.stages.afterRelease.rssMB, r.stages.afterSearches.rssMB);
    console.log(
      `goal ≤ ${goal[r.case]} MB (${r.case}, ${r.chunks} chunks): ${rss <= goal[r.case] ? 'met' : 'not met'} (${f(rss)} MB steady, peak ${f(r.peakMB)})`,
    );
  }
  const file = writeResults('daemon-rss', {
    bench: 'daemon-rss',
    date: new Date().toISOString(),
    machine: { ...started, loadavg1mAtEnd: end.loadavg1m },
    env: MAKE_RUN_ENV,
    yaml,
    goal,
    results,
  });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

await main();
export type { ProcFigures };
