// How late the scheduler starts a job after its cron slot, on the real wall clock: (1) the scheduler core in this
// process with a job every second and one every minute, beside a plain setTimeout aimed at each whole second (the
// floor any timer-driven scheduler stands on); (2) the daemon's scheduler actor (worker thread) running
// daily_reflection every second against a chat-completions server on loopback, read back from GET /v1/jobs
// (last_run.at − last_run.slot). Both measure to the moment the job's work starts, after the scheduler has put the
// slot under way on disk (an fsync). Goal: every run starts within 1 s of its slot.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/scheduler-fire-lag.js [--seconds 75] [--daemon-seconds 20]
// Prints a table (median, p95 and max lag per source) and writes bench/results/scheduler-fire-lag.json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SchedulerCore } from '../actors/scheduler/core.js';
import { FileStateStore } from '../actors/scheduler/state-file.js';
import type { JobsList } from '../messages/to-scheduler.js';
import { FakeLlm } from '../test/helpers/fake-llm.js';
import { skillAnswer, skillYaml } from '../test/scheduler/helpers/skill-daemon.js';
import { BenchRoot, intArg, machine, median, newDaemon, pct, printTable, writeResults } from './harness.js';

const seconds = intArg('seconds', 75);
const daemonSeconds = intArg('daemon-seconds', 20);

const wall = {
  now: () => Date.now(),
  setTimeout: (f: () => void, ms: number) => setTimeout(f, ms),
  clearTimeout: (h: object) => clearTimeout(h as NodeJS.Timeout),
};

async function inProcess(): Promise<{ second: number[]; minute: number[]; timer: number[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-bench-sched-'));
  const lags = { second: [] as number[], minute: [] as number[], timer: [] as number[] };
  const core = new SchedulerCore({
    clock: wall,
    store: new FileStateStore(dir),
    jobs: [
      { name: 'every_second', enabled: true, schedule: { kind: 'cron', expr: '* * * * * *', tz: 'UTC' } },
      { name: 'every_minute', enabled: true, schedule: { kind: 'cron', expr: '* * * * *', tz: 'UTC' } },
    ],
    tz: 'UTC',
    catchUpMs: 3_600_000,
    idle: () => null,
    log: () => {},
    run: async (req) => {
      if (req.slot !== null) (req.job === 'every_second' ? lags.second : lags.minute).push(Date.now() - req.slot);
      return { outcome: 'skipped', path: null, commit: null, reason: 'bench', results: [] };
    },
  });
  // the reference: a bare setTimeout to each next whole second, from the same event loop
  let stop = false;
  const aim = () => {
    if (stop) return;
    const target = Math.ceil((Date.now() + 1) / 1000) * 1000;
    setTimeout(() => {
      lags.timer.push(Date.now() - target);
      aim();
    }, target - Date.now());
  };
  core.start();
  aim();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  core.stop();
  rmSync(dir, { recursive: true, force: true });
  return lags;
}

async function inDaemon(): Promise<{ lags: number[]; triggers: Record<string, number> }> {
  const llm = await FakeLlm.start();
  llm.respond(skillAnswer);
  const root = await BenchRoot.create('sched');
  const vault = path.join(root.dir, 'vault');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(path.join(vault, 'Daily'), { recursive: true });
  writeFileSync(path.join(vault, 'Daily', `${new Date().toISOString().slice(0, 10)}.md`), '# Today\n\nA note for the reflection.\n');
  const cfg = root.config(
    vault,
    root.dataDir(),
    skillYaml(llm.url, { daily_reflection: '{ cron: "* * * * * *" }' }).replace('tz: Europe/Berlin', 'tz: UTC'),
  );
  const d = newDaemon(cfg, 'serve');
  await d.start();
  await d.whenCaughtUp();
  const url = `http://127.0.0.1:${d.board.get('gatewayPort')}`;
  const token = (await import('node:fs')).readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
  const seen = new Map<string, number>();
  const triggers: Record<string, number> = {};
  const end = Date.now() + daemonSeconds * 1000;
  while (Date.now() < end) {
    const r = await fetch(`${url}/v1/jobs`, { headers: { authorization: `Bearer ${token}` } });
    const l = (await r.json()) as JobsList;
    const last = l.jobs.find((j) => j.name === 'daily_reflection')?.last_run;
    if (last?.slot && !seen.has(last.slot)) {
      seen.set(last.slot, Date.parse(last.at) - Date.parse(last.slot));
      triggers[last.trigger] = (triggers[last.trigger] ?? 0) + 1;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  await d.stop('bench done', 0);
  await llm.close();
  root.cleanup();
  return { lags: [...seen.values()], triggers };
}

async function main(): Promise<void> {
  const m = machine();
  console.log(
    `scheduler fire lag: ${seconds} s in process, ${daemonSeconds} s in the daemon; ${m.cpu} (${m.cpus} CPUs), load ${m.loadavg1m.toFixed(1)}`,
  );
  const a = await inProcess();
  const b = await inDaemon();
  const row = (name: string, xs: number[]) => [
    name,
    String(xs.length),
    median(xs).toFixed(1),
    pct(xs, 95).toFixed(1),
    Math.max(...xs).toFixed(1),
  ];
  printTable(
    ['source', 'runs', 'median ms', 'p95 ms', 'max ms'],
    [
      row('core: job every second', a.second),
      row('core: job every minute', a.minute),
      row('reference: bare setTimeout to each second', a.timer),
      row('daemon: daily_reflection every second', b.lags),
    ],
  );
  const all = [...a.second, ...a.minute, ...b.lags];
  const max = Math.max(...all);
  console.log(
    `goal: every run within 1000 ms of its slot — ${max < 1000 ? 'met' : 'NOT met'} (max ${max.toFixed(1)} ms); daemon triggers ${JSON.stringify(b.triggers)}`,
  );
  const file = writeResults('scheduler-fire-lag', {
    machine: { ...m, loadavg1m_end: os.loadavg()[0] },
    seconds,
    daemonSeconds,
    core: {
      second: { n: a.second.length, median: median(a.second), p95: pct(a.second, 95), max: Math.max(...a.second) },
      minute: { n: a.minute.length, median: median(a.minute), max: Math.max(...a.minute) },
    },
    reference_setTimeout: { n: a.timer.length, median: median(a.timer), p95: pct(a.timer, 95), max: Math.max(...a.timer) },
    daemon: { n: b.lags.length, median: median(b.lags), p95: pct(b.lags, 95), max: Math.max(...b.lags), triggers: b.triggers },
    goal_ms: 1000,
    met: max < 1000,
  });
  console.log(`wrote ${file}`);
}

await main();
