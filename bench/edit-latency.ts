// Edit → searchable latency for one note in a 4,612-note vault (serve mode), beside the debounce window it waits on.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/edit-latency.js [--edits 30] [--warmup 2] [--gap-ms 150] [--index-cache DIR]
// Indexes the whole tldr corpus once (reported: time, chunks, RSS), then for each watcher setting — the default
// (debounce_ms 200) and debounce_ms 50 — restarts the daemon on that index and appends a unique nonsense word to
// random notes, one at a time. 'done' is write → the store writer's `watcher.done` for the note; 'searchable' is write
// → a bm25 search over HTTP for the word returns the note. Stages come from the messages main routes. The warm-up
// edits are not counted. Prints a table and writes bench/results/edit-latency.json.
import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AnyMsg } from '../messages/index.js';
import {
  BenchRoot,
  configFor,
  intArg,
  machine,
  mb,
  median,
  newDaemon,
  pct,
  printTable,
  rng,
  SearchClient,
  tldrIndex,
  writeResults,
  type TldrIndex,
} from './harness.js';

const STAGES = ['osEvent', 'debounce', 'chunk', 'embed', 'store'] as const;
type Stage = (typeof STAGES)[number];
const STAGE_LABEL: Record<Stage, string> = {
  osEvent: 'write → OS event reaches main',
  debounce: 'event → chunker gets the file (debounce + stat)',
  chunk: 'chunker: read + parse',
  embed: 'embedder: hash lookup + batch window + model',
  store: 'store writer: transaction → done at main',
};

interface Edit {
  path: string;
  doneMs: number;
  searchableMs: number;
  searches: number;
  stages: Record<Stage, number>;
}

interface Variant {
  label: string;
  debounceMs: number;
  batchWindowMs: number;
  yaml: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Letters only (FTS5 keeps it one token) and unique across runs on a reused vault. */
function nonsense(n: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor(v / 26)) s += String.fromCharCode(97 + (v % 26));
  return `zq${s}xv`;
}

async function runVariant(
  root: BenchRoot,
  t: TldrIndex,
  v: Variant,
  edits: number,
  warmup: number,
  gapMs: number,
  seed: number,
): Promise<{ edits: Edit[]; lost: number; rssMB: number }> {
  const cfg = configFor(root, t, v.yaml);
  const d = newDaemon(cfg, 'serve');
  await d.start();
  await d.whenCaughtUp();
  const client = SearchClient.forDaemon(d, cfg);
  const notes = readdirSync(t.vault)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const r = rng(seed);
  const out: Edit[] = [];
  let lost = 0;
  const base = Date.now() * 100;
  try {
    for (let i = 0; i < warmup + edits; i++) {
      const rel = notes[Math.floor(r() * notes.length)]!;
      const word = nonsense(base + i);
      const at: Partial<Record<'event' | 'admitted' | 'chunked' | 'embedded', number>> = {};
      const off = d.onRouted((m: AnyMsg) => {
        const now = performance.now();
        if (m.type === 'watcher.fs_events' && m.paths.includes(rel)) at.event ??= now;
        else if (m.type === 'chunker.file_changed' && m.path === rel) at.admitted ??= now;
        else if (m.type === 'embedder.embed_note' && m.note.path === rel) at.chunked ??= now;
        else if (m.type === 'store.upsert' && m.note.path === rel) at.embedded ??= now;
      });
      const done = d.nextDone(rel, 'indexed');
      const t0 = performance.now();
      appendFileSync(path.join(t.vault, rel), `\n${word}\n`);
      const ok = await Promise.race([done.then(() => true), sleep(10_000).then(() => false)]);
      const tDone = performance.now();
      off();
      if (!ok) {
        lost++;
        console.error(`  edit ${i + 1}: no 'indexed' for ${rel} within 10 s`);
        continue;
      }
      let searches = 0;
      let found = false;
      while (!found && performance.now() - tDone < 5_000) {
        searches++;
        found = (await client.search(word, 'bm25')).results.some((h) => h.path === rel);
      }
      const tFound = performance.now();
      if (!found) {
        lost++;
        console.error(`  edit ${i + 1}: ${rel} indexed but not found by '${word}' within 5 s`);
        continue;
      }
      if (i >= warmup) {
        const e = at.event ?? NaN;
        const a = at.admitted ?? NaN;
        const c = at.chunked ?? NaN;
        const m = at.embedded ?? NaN;
        out.push({
          path: rel,
          doneMs: tDone - t0,
          searchableMs: tFound - t0,
          searches,
          stages: { osEvent: e - t0, debounce: a - e, chunk: c - a, embed: m - c, store: tDone - m },
        });
      }
      await sleep(gapMs); // an edit is not a burst: let the pipeline idle, as between a person's saves
    }
    return { edits: out, lost, rssMB: mb(process.memoryUsage().rss) };
  } finally {
    client.close();
    await d.stop('bench done', 0);
  }
}

function summary(v: Variant, r: { edits: Edit[]; lost: number; rssMB: number }) {
  const done = r.edits.map((e) => e.doneMs);
  const searchable = r.edits.map((e) => e.searchableMs);
  return {
    label: v.label,
    debounceMs: v.debounceMs,
    batchWindowMs: v.batchWindowMs,
    edits: r.edits.length,
    lost: r.lost,
    done: { p50: pct(done, 50), p95: pct(done, 95), max: Math.max(...done) },
    searchable: { p50: pct(searchable, 50), p95: pct(searchable, 95), max: Math.max(...searchable) },
    searchesUntilFound: { median: median(r.edits.map((e) => e.searches)), max: Math.max(...r.edits.map((e) => e.searches)) },
    stageMedians: Object.fromEntries(STAGES.map((s) => [s, median(r.edits.map((e) => e.stages[s]))])) as Record<Stage, number>,
    rssAfterEditsMB: r.rssMB,
    raw: r.edits,
  };
}

async function main(): Promise<void> {
  const edits = intArg('edits', 30);
  const warmup = intArg('warmup', 2, 0);
  const gapMs = intArg('gap-ms', 150);
  const started = machine();
  const root = await BenchRoot.create('edit');
  try {
    const t = await tldrIndex(root, 'edit-latency');
    const variants: Variant[] = [
      { label: 'default config', debounceMs: 200, batchWindowMs: 15, yaml: '' },
      { label: 'watcher.debounce_ms: 50', debounceMs: 50, batchWindowMs: 15, yaml: 'watcher:\n  debounce_ms: 50\n' },
    ];
    const results: Array<ReturnType<typeof summary>> = [];
    for (const [i, v] of variants.entries()) {
      console.error(`  ${v.label}: ${warmup} warm-up + ${edits} edits…`);
      results.push(summary(v, await runVariant(root, t, v, edits, warmup, gapMs, 7 + i)));
    }
    const result = {
      bench: 'edit-latency',
      date: new Date().toISOString(),
      machine: { ...started, loadavg1mAtEnd: machine().loadavg1m },
      vault: { corpus: 'tldr-common', notes: t.meta.files, chunks: t.meta.chunks },
      index: { ...t.meta, reused: t.reused },
      edits,
      warmup,
      gapMs,
      variants: results,
      goal: { searchableP50Ms: 400, searchableP95Ms: 1000 },
    };

    console.log(
      `\nedit → searchable, one note at a time in a ${t.meta.files}-note vault (${t.meta.chunks} chunks); ${edits} edits per row after ${warmup} warm-up`,
    );
    console.log(
      `(machine shared: 1-min load ${started.loadavg1m.toFixed(2)} at start, ${result.machine.loadavg1mAtEnd.toFixed(2)} at end, ${started.cpus} cores)\n`,
    );
    printTable(
      ['setting', 'debounce ms', 'done p50', 'done p95', 'searchable p50', 'searchable p95', 'max', 'lost'],
      results.map((s) => [
        s.label,
        String(s.debounceMs),
        s.done.p50.toFixed(0),
        s.done.p95.toFixed(0),
        s.searchable.p50.toFixed(0),
        s.searchable.p95.toFixed(0),
        s.searchable.max.toFixed(0),
        String(s.lost),
      ]),
    );
    console.log('\nmedian per stage (ms):\n');
    printTable(
      ['stage', ...results.map((s) => s.label)],
      [
        ...STAGES.map((st) => [STAGE_LABEL[st], ...results.map((s) => s.stageMedians[st].toFixed(1))]),
        ['done → found by bm25 over HTTP', ...results.map((s) => median(s.raw.map((e) => e.searchableMs - e.doneMs)).toFixed(1))],
      ],
    );
    const def = results[0]!;
    console.log(
      `\nindexing the vault: ${t.reused ? `reused (built by ${t.meta.builtBy}: ` : '('}${(t.meta.indexMs / 1000).toFixed(1)} s, RSS ${t.meta.rssAfterIndexMB.toFixed(0)} MB after catching up)`,
    );
    console.log(
      `goal searchable p50 ≤ 400 ms: ${def.searchable.p50 <= 400 ? 'met' : 'not met'} (${def.searchable.p50.toFixed(0)}); p95 ≤ 1 s: ${def.searchable.p95 <= 1000 ? 'met' : 'not met'} (${def.searchable.p95.toFixed(0)})`,
    );
    console.log(`wrote ${path.relative(process.cwd(), writeResults('edit-latency', result))}`);
  } finally {
    root.cleanup();
  }
}

await main();
