// memory_remember end to end (HTTP → gateway → git writer: today's log read, one line appended, atomic write, one
// commit → answer) 2,000 times into one day's log: the cost of the first appends against the last (only the new line
// is chunked and embedded, so the 2,000th should cost what the 1st does), and remember → searchable for a sample.
// Beside it, in the same run, vault_write of a note of the same size (the same path through the git writer).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/episodes-remember.js [--appends 2000] [--window 50] [--notes 300]
// Goals (issue 10): p50 ≤ 25 ms including the commit; the 2,000th append as cheap as the 1st (within noise).
// Writes bench/results/episodes-remember.json.
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import path from 'node:path';
import {
  BenchRoot,
  corpusFiles,
  intArg,
  machine,
  median,
  newDaemon,
  pct,
  postJsonOk,
  printTable,
  rng,
  spread,
  writeResults,
} from './harness.js';

const APPENDS = intArg('appends', 2000);
const WINDOW = intArg('window', 50);
const NOTES = intArg('notes', 300);

/** A tool call or search as agent `bench`: its answer, or a throw naming the route and status. */
const call = (agent: Agent, port: number, token: string, route: string, body: unknown): Promise<any> =>
  postJsonOk<any>(agent, port, token, route, body, 'bench');

async function main(): Promise<void> {
  const m = machine();
  console.error(`episodes-remember on ${m.cpu} (${m.cpus} cores, load ${m.loadavg1m.toFixed(2)}): ${APPENDS} appends to one day log`);
  const root = await BenchRoot.create('remember');
  const rand = rng(5);
  try {
    const vault = root.vault('tldr-common', spread(corpusFiles('tldr-common'), NOTES));
    const cfg = root.config(vault, root.dataDir());
    const d = newDaemon(cfg, 'serve');
    await d.start();
    await d.whenCaughtUp();
    const port = d.board.get('gatewayPort');
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const calls: number[] = [];
    const searchable: Array<{ i: number; ms: number }> = [];
    const writes: number[] = [];
    let day = '';
    try {
      for (let i = 0; i < 5; i++)
        await call(agent, port, token, '/v1/tools/vault_write', { path: 'Inbox/warm.md', content: `warm ${i}\n` });
      for (let i = 0; i < APPENDS; i++) {
        const word = `fx${Math.floor(rand() * 1e9).toString(36)}`;
        const t0 = performance.now();
        const r = await call(agent, port, token, '/v1/tools/memory_remember', {
          content: `Fact ${i}: the ${word} service is owned by team ${i % 17} and deploys on ${['Monday', 'Wednesday', 'Friday'][i % 3]}`,
          category: 'ops',
        });
        calls.push(performance.now() - t0);
        day = r.path;
        if (i % 50 === 0 || i === APPENDS - 1) {
          // remember → searchable, for a sample (polling a keyword search for its own word)
          for (;;) {
            const s = await call(agent, port, token, '/v1/search', { query: word, mode: 'bm25', k: 1, filters: { source_type: 'fact' } });
            if (s.results.length > 0) break;
            await new Promise((res) => setTimeout(res, 1));
          }
          searchable.push({ i, ms: performance.now() - t0 });
        }
      }
      // the reference in the same run: vault_write of a note as long as one fact line, through the same git writer
      for (let i = 0; i < WINDOW * 2; i++) {
        const t0 = performance.now();
        await call(agent, port, token, '/v1/tools/vault_write', {
          path: 'Inbox/reference.md',
          content: `# Reference\n\nedit ${i} of a one-line note\n`,
        });
        writes.push(performance.now() - t0);
      }
    } finally {
      agent.destroy();
      await d.stop('bench done', 0);
    }
    const lines = readFileSync(path.join(vault, day), 'utf8').split('\n').length;
    const first = calls.slice(0, WINDOW);
    const last = calls.slice(-WINDOW);
    const ratio = median(last) / median(first);
    const p50 = median(calls);
    const early = searchable.filter((x) => x.i < APPENDS / 2).map((x) => x.ms);
    const late = searchable.filter((x) => x.i >= APPENDS / 2).map((x) => x.ms);
    printTable(
      ['what', 'figure', 'reference (same run)', 'goal', 'met?'],
      [
        [
          `memory_remember, ${APPENDS} appends`,
          `p50 ${p50.toFixed(1)} ms, p99 ${pct(calls, 99).toFixed(1)} ms`,
          `vault_write p50 ${median(writes).toFixed(1)} ms`,
          'p50 ≤ 25 ms',
          p50 <= 25 ? 'yes' : 'no',
        ],
        [
          `appends 1–${WINDOW} vs ${APPENDS - WINDOW + 1}–${APPENDS} (log of ${lines} lines)`,
          `p50 ${median(first).toFixed(1)} ms vs ${median(last).toFixed(1)} ms (ratio ${ratio.toFixed(2)})`,
          '',
          'equal within noise',
          ratio <= 1.25 ? 'yes' : 'no',
        ],
        [
          'remember → found by search (sample of every 50th)',
          `first half p50 ${median(early).toFixed(0)} ms, second half p50 ${median(late).toFixed(0)} ms`,
          '',
          '',
          '',
        ],
      ],
      1,
    );
    const out = writeResults('episodes-remember', {
      bench: 'episodes-remember',
      date: new Date().toISOString(),
      machine: m,
      appends: APPENDS,
      window: WINDOW,
      logLines: lines,
      rememberMs: { p50, p99: pct(calls, 99), firstP50: median(first), lastP50: median(last), ratioLastToFirst: ratio },
      searchableMs: {
        firstHalfP50: median(early),
        secondHalfP50: median(late),
        sample: searchable.map((x) => ({ i: x.i, ms: Math.round(x.ms) })),
      },
      vaultWriteMs: { p50: median(writes) },
      goalP50Met: p50 <= 25,
      goalFlatMet: ratio <= 1.25,
    });
    console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
  } finally {
    root.cleanup();
  }
}

await main();
