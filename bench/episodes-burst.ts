// A burst of chat: 10,000 messages over 100 sessions posted as fast as 4 clients can (requests of 100), timed until
// every one is accepted (journaled, fsync'd) and until all are searchable, beside the model's own throughput on the
// texts the daemon embedded (main's bulk pool, both threads, after the daemon stopped) in the same run.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/episodes-burst.js [--messages 10000] [--sessions 100] [--per-request 100] [--clients 4]
// Goals (issue 10): accepted at ≥ 1,000 episodes/s; searchable within the model's throughput. Writes
// bench/results/episodes-burst.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { providerSettings } from '../actors/embedder/factory.js';
import { splitRows } from '../actors/embedder/pool-task.js';
import { EmbedPools } from '../main/embed-pools.js';
import { BenchRoot, corpusFiles, intArg, machine, median, newDaemon, printTable, rng, writeResults } from './harness.js';
import { CORPORA } from '../test/helpers/corpora.js';

const MESSAGES = intArg('messages', 10_000);
const SESSIONS = intArg('sessions', 100);
const PER_REQUEST = intArg('per-request', 100);
const CLIENTS = intArg('clients', 4);

/** Sentences of the tldr corpus: chat-like, varied text. */
function sentences(n: number): string[] {
  const out: string[] = [];
  for (const f of corpusFiles('tldr-common')) {
    for (const line of readFileSync(path.join(CORPORA, 'tldr-common', f), 'utf8').split('\n')) {
      const s = line.replace(/^[-#>`\s]+|[`{}]/g, '').trim();
      if (s.length >= 20 && s.length <= 200) out.push(s);
      if (out.length >= n) return out;
    }
  }
  return out;
}

async function post(url: string, token: string, body: unknown): Promise<{ accepted: number }> {
  const r = await fetch(`${url}/v1/episodes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-memvault-agent': 'burst' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`/v1/episodes answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as { accepted: number };
}

function metric(text: string, name: string, label: string): number {
  return Number(new RegExp(`${name}\\{source_type="${label}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const m = machine();
  console.error(`episodes-burst on ${m.cpu} (${m.cpus} cores, load ${m.loadavg1m.toFixed(2)}): ${MESSAGES} messages, ${SESSIONS} sessions`);
  const root = await BenchRoot.create('burst');
  const rand = rng(11);
  const texts = sentences(5_000);
  const perSession = Math.ceil(MESSAGES / SESSIONS);
  // sessions interleaved as real traffic would be: message k of every session before message k+1 of any
  const all = Array.from({ length: perSession }, (_, k) =>
    Array.from({ length: SESSIONS }, (_, s) => ({
      type: 'chat',
      session_id: `s${s}`,
      message_id: `m${k}`,
      role: k % 2 ? 'assistant' : 'user',
      text: texts[Math.floor(rand() * texts.length)]!,
    })),
  )
    .flat()
    .slice(0, MESSAGES);
  const requests: unknown[][] = [];
  for (let i = 0; i < all.length; i += PER_REQUEST) requests.push(all.slice(i, i + PER_REQUEST));
  try {
    const vault = root.vault('tldr-common', []);
    const cfg = root.config(vault, root.dataDir());
    const d = newDaemon(cfg, 'serve');
    await d.start();
    await d.whenCaughtUp();
    const url = `http://127.0.0.1:${d.board.get('gatewayPort')}`;
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    let acceptedMs = 0;
    let searchableMs = 0;
    let embedded = 0;
    let accepted = 0;
    let turns = 0;
    try {
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < requests.length) {
            const r = await post(url, token, { episodes: requests[next++]! });
            accepted += r.accepted; // after the await: `accepted += await …` would read a stale total
          }
        }),
      );
      acceptedMs = performance.now() - t0;
      await d.whenCaughtUp();
      searchableMs = performance.now() - t0;
      const text = (await d.metricsText()).text;
      embedded = metric(text, 'memvault_episode_embeddings_total', 'chat');
      const st = (await (await fetch(`${url}/v1/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
      turns = st.index.sources.chat ?? 0;
    } finally {
      await d.stop('bench done', 0);
    }
    // the model alone on as many texts of the same kind, through the same pool the daemon uses (both threads)
    const pools = new EmbedPools(cfg.embedder.threads);
    const settings = providerSettings(cfg);
    const sample = Array.from(
      { length: embedded },
      (_, i) => `User: ${texts[i % texts.length]}\nAssistant: ${texts[(i * 7) % texts.length]}`,
    );
    await pools.run('bulk', { settings, texts: ['warm up'] });
    const t1 = performance.now();
    const batches: Array<Promise<unknown>> = [];
    for (let i = 0; i < sample.length; i += cfg.embedder.batch_size)
      batches.push(
        pools.run('bulk', { settings, texts: sample.slice(i, i + cfg.embedder.batch_size) }).then((r) => (r.ok ? splitRows(r.result) : r)),
      );
    await Promise.all(batches);
    const modelMs = performance.now() - t1;
    await pools.destroy();
    const rate = (accepted / acceptedMs) * 1000;
    const ratio = searchableMs / modelMs;
    printTable(
      ['what', 'figure', 'reference (same run)', 'goal', 'met?'],
      [
        [
          `${MESSAGES} messages, ${SESSIONS} sessions, ${CLIENTS} clients × ${PER_REQUEST}/request`,
          `accepted in ${(acceptedMs / 1000).toFixed(1)} s: ${rate.toFixed(0)} episodes/s`,
          '',
          '≥ 1,000/s',
          rate >= 1000 ? 'yes' : 'no',
        ],
        [
          'all searchable (index caught up)',
          `${(searchableMs / 1000).toFixed(1)} s; ${turns} turns, ${embedded} texts embedded`,
          `the model alone on ${embedded} such texts: ${(modelMs / 1000).toFixed(1)} s (ratio ${ratio.toFixed(2)})`,
          'within the model’s throughput',
          ratio <= 1.5 ? 'yes' : 'no',
        ],
      ],
      1,
    );
    const out = writeResults('episodes-burst', {
      bench: 'episodes-burst',
      date: new Date().toISOString(),
      machine: m,
      messages: MESSAGES,
      sessions: SESSIONS,
      perRequest: PER_REQUEST,
      clients: CLIENTS,
      accepted,
      acceptedMs,
      acceptedPerSec: rate,
      searchableMs,
      turns,
      embeddedTexts: embedded,
      modelAloneMs: modelMs,
      ratioToModel: ratio,
      medianRequestSize: median(requests.map((r) => r.length)),
    });
    console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
  } finally {
    root.cleanup();
  }
}

await main();
