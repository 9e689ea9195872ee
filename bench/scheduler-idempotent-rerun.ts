// What running a job again costs once its note exists: POST /v1/jobs/daily_reflection/run for a day already written,
// over HTTP to a daemon on the example vault, against GET /v1/status (the same HTTP round trip through the gateway)
// and the first, writing run (an LLM call on loopback, the render and one commit). Goal: an idempotent re-run takes
// at most 20 ms and makes no LLM call (the fake server counts them).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/scheduler-idempotent-rerun.js [--runs 200]
// Prints a table and writes bench/results/scheduler-idempotent-rerun.json.
import { cpSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeLlm } from '../test/helpers/fake-llm.js';
import { skillAnswer, skillYaml } from '../test/scheduler/helpers/skill-daemon.js';
import { BenchRoot, intArg, machine, median, newDaemon, pct, printTable, REPO, writeResults } from './harness.js';

const runs = intArg('runs', 200);

async function main(): Promise<void> {
  const m = machine();
  const llm = await FakeLlm.start();
  llm.respond(skillAnswer);
  const root = await BenchRoot.create('rerun');
  const vault = path.join(root.dir, 'vault');
  cpSync(path.join(REPO, 'examples/vault'), vault, { recursive: true });
  const cfg = root.config(vault, root.dataDir(), skillYaml(llm.url));
  const d = newDaemon(cfg, 'serve');
  await d.start();
  await d.whenCaughtUp();
  const url = `http://127.0.0.1:${d.board.get('gatewayPort')}`;
  const headers = {
    authorization: `Bearer ${readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim()}`,
    'content-type': 'application/json',
  };
  const run = async (): Promise<{ ms: number; outcome: string }> => {
    const t0 = performance.now();
    const r = await fetch(`${url}/v1/jobs/daily_reflection/run`, { method: 'POST', headers, body: JSON.stringify({ date: '2026-11-19' }) });
    const body = (await r.json()) as { outcome: string };
    return { ms: performance.now() - t0, outcome: body.outcome };
  };
  const status = async (): Promise<number> => {
    const t0 = performance.now();
    await (await fetch(`${url}/v1/status`, { headers })).json();
    return performance.now() - t0;
  };
  const first = await run();
  if (first.outcome !== 'written') throw new Error(`the first run should write the note, it was ${first.outcome}`);
  const callsAfterFirst = llm.chats().length;
  for (let i = 0; i < 10; i++) await Promise.all([run(), status()]); // warm both paths
  const rerun: number[] = [];
  const ref: number[] = [];
  const outcomes = new Set<string>();
  for (let i = 0; i < runs; i++) {
    const r = await run(); // interleaved: load on the machine hits both alike
    rerun.push(r.ms);
    outcomes.add(r.outcome);
    ref.push(await status());
  }
  const extraCalls = llm.chats().length - callsAfterFirst;
  await d.stop('bench done', 0);
  await llm.close();
  root.cleanup();

  console.log(`idempotent re-run of daily_reflection, ${runs} runs; ${m.cpu} (${m.cpus} CPUs), load ${m.loadavg1m.toFixed(1)}`);
  printTable(
    ['what', 'median ms', 'p95 ms', 'LLM calls'],
    [
      ['re-run, note already written (skipped_idempotent)', median(rerun).toFixed(2), pct(rerun, 95).toFixed(2), String(extraCalls)],
      ['reference: GET /v1/status, same connection path', median(ref).toFixed(2), pct(ref, 95).toFixed(2), '0'],
      ['first run: LLM on loopback, render, one commit', first.ms.toFixed(1), '—', String(callsAfterFirst)],
    ],
  );
  const met = median(rerun) <= 20 && extraCalls === 0 && outcomes.size === 1 && outcomes.has('skipped_idempotent');
  console.log(
    `re-run / status ${(median(rerun) / median(ref)).toFixed(2)}×; goal ≤ 20 ms and no LLM call — ${met ? 'met' : 'NOT met'} (outcomes: ${[...outcomes].join(', ')})`,
  );
  const file = writeResults('scheduler-idempotent-rerun', {
    machine: { ...m, loadavg1m_end: os.loadavg()[0] },
    runs,
    rerun: { median: median(rerun), p95: pct(rerun, 95), llm_calls: extraCalls, outcomes: [...outcomes] },
    reference_status: { median: median(ref), p95: pct(ref, 95) },
    ratio: median(rerun) / median(ref),
    first_run_ms: first.ms,
    goal_ms: 20,
    met,
  });
  console.log(`wrote ${file}`);
}

await main();
