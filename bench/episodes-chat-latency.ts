// Chat at typing rate: one message a second into a running daemon (HTTP → journal fsync → turn → model → index),
// timed from the POST until a keyword search finds the message's own word — what an agent searching its
// conversation sees. Beside it, in the same run, one embedding on the model alone.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/episodes-chat-latency.js [--messages 40] [--interval-ms 1000] [--notes 300]
// Goal (issue 10): ingest → searchable p50 ≤ 300 ms. Prints a table and writes bench/results/episodes-chat-latency.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createUseLiteProvider } from '../actors/embedder/use-lite/provider.js';
import { BenchRoot, corpusFiles, intArg, machine, median, newDaemon, pct, printTable, rng, spread, writeResults } from './harness.js';

const MESSAGES = intArg('messages', 40);
const INTERVAL = intArg('interval-ms', 1000);
const NOTES = intArg('notes', 300);

async function post(url: string, token: string, route: string, body: unknown): Promise<any> {
  const r = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-memvault-agent': 'bench' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${route} answered ${r.status}: ${await r.text()}`);
  return r.json();
}

async function main(): Promise<void> {
  const m = machine();
  console.error(
    `episodes-chat-latency on ${m.cpu} (${m.cpus} cores, load ${m.loadavg1m.toFixed(2)}): ${MESSAGES} messages, one per ${INTERVAL} ms`,
  );
  const root = await BenchRoot.create('chat');
  const rand = rng(7);
  try {
    const vault = root.vault('tldr-common', spread(corpusFiles('tldr-common'), NOTES));
    const cfg = root.config(vault, root.dataDir());
    const d = newDaemon(cfg, 'serve');
    await d.start();
    await d.whenCaughtUp();
    const url = `http://127.0.0.1:${d.board.get('gatewayPort')}`;
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    const latencies: number[] = [];
    try {
      for (let i = 0; i < MESSAGES; i++) {
        const word = `qz${Math.floor(rand() * 1e9).toString(36)}`; // a word nothing else holds
        const text = `${i % 2 ? 'Sure, I can look into' : 'Could you check'} the ${word} report before the review, message ${i}`;
        const started = performance.now();
        await post(url, token, '/v1/episodes', {
          episodes: [{ type: 'chat', session_id: 'typing', message_id: `m${i}`, role: i % 2 ? 'assistant' : 'user', text }],
        });
        for (;;) {
          const s = await post(url, token, '/v1/search', { query: word, mode: 'bm25', k: 1, filters: { source_type: 'chat' } });
          if (s.results.length > 0) break;
          await new Promise((r) => setTimeout(r, 2));
        }
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, Math.max(0, INTERVAL - (performance.now() - started))));
      }
    } finally {
      await d.stop('bench done', 0);
    }
    // the same kind of text through the model alone, one at a time (the floor an embedded turn cannot beat)
    const model = await createUseLiteProvider({ cacheDir: root.modelDir });
    const one: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await model.embed([`User: Could you check the report before the review, message ${i}\nAssistant: Sure, I can look into it`]);
      one.push(performance.now() - t0);
    }
    await model.close();
    const p50 = median(latencies);
    printTable(
      ['what', 'figure', 'reference (same run)', 'goal', 'met?'],
      [
        [
          `chat at 1 message / ${INTERVAL} ms, POST → found by search`,
          `p50 ${p50.toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
          `one turn through the model alone: p50 ${median(one).toFixed(1)} ms; batch window 15 ms`,
          'p50 ≤ 300 ms',
          p50 <= 300 ? 'yes' : 'no',
        ],
      ],
      1,
    );
    const out = writeResults('episodes-chat-latency', {
      bench: 'episodes-chat-latency',
      date: new Date().toISOString(),
      machine: m,
      messages: MESSAGES,
      intervalMs: INTERVAL,
      notes: NOTES,
      searchableMs: { p50, p95: pct(latencies, 95), max: Math.max(...latencies), all: latencies.map((x) => Math.round(x)) },
      modelAloneMs: { p50: median(one) },
      goalMet: p50 <= 300,
    });
    console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
  } finally {
    root.cleanup();
  }
}

await main();
