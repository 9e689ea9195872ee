// `make chaos`: the long reliability campaign (issue 4) — kill -9 cycles, actor faults, overload, hostile input,
// disk and clock faults — printed as one table and saved to bench/results/chaos.json. `--quick` runs the CI sizes;
// `--only=crash,faults,overload,hostile,disk,episodes,dream` runs some parts, `--merge` keeps the other parts of the last saved run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers/daemon.js';
import { median } from '../../bench/harness.js';
import { runCrashCycles, type CrashReport } from './crash-consistency.js';
import { runActorFaults, type ActorFaultReport } from './actor-faults.js';
import { runOverload, type OverloadReport } from './overload.js';
import { runHostile, type HostileReport } from './hostile.js';
import { runDiskClock, type DiskClockReport } from './disk-clock.js';
import { runEpisodeCrash, type EpisodeCrashReport } from './episodes-burst.js';
import { runDreamKill, type DreamKillReport } from './dream-kill.js';

const LONG = { cycles: 100, rounds: 5, notes: 10_000, agents: 8, inputs: 20_000, episodeCycles: 30 };
const QUICK = { cycles: 10, rounds: 1, notes: 1_500, agents: 8, inputs: 10_000, episodeCycles: 3 };

function argInt(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`--${name} must be a non-negative integer`);
  return v;
}

const sizes = process.argv.includes('--quick') ? QUICK : LONG;
const o = {
  cycles: argInt('cycles', sizes.cycles),
  rounds: argInt('rounds', sizes.rounds),
  notes: argInt('notes', sizes.notes),
  agents: argInt('agents', sizes.agents),
  inputs: argInt('inputs', sizes.inputs),
  episodeCycles: argInt('episode-cycles', sizes.episodeCycles),
  seed: argInt('seed', Date.now() % 1_000_000),
};
const only = (process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',') ?? []) as string[];
const want = (part: string) => only.length === 0 || only.includes(part);
const say = (l: string) => process.stderr.write(`[chaos] ${l}\n`);

interface Results {
  crash?: CrashReport;
  faults?: ActorFaultReport;
  overload?: OverloadReport;
  hostile?: HostileReport;
  diskClock?: DiskClockReport;
  episodes?: EpisodeCrashReport;
  dream?: DreamKillReport;
  took: Record<string, number>;
}
const r: Results = { took: {} };

async function part<T>(name: string, run: () => Promise<T>): Promise<T> {
  say(`${name}: starting`);
  const t0 = performance.now();
  const out = await run();
  r.took[name] = Math.round((performance.now() - t0) / 1000);
  say(`${name}: done in ${r.took[name]} s`);
  return out;
}

if (want('crash')) r.crash = await part('crash', () => runCrashCycles({ cycles: o.cycles, seed: o.seed, log: say }));
if (want('faults')) r.faults = await part('faults', () => runActorFaults({ rounds: o.rounds, log: say }));
if (want('overload')) r.overload = await part('overload', () => runOverload({ notes: o.notes, agents: o.agents, log: say }));
if (want('hostile')) r.hostile = await part('hostile', () => runHostile({ inputs: o.inputs, seed: o.seed, log: say }));
if (want('disk')) r.diskClock = await part('disk', () => runDiskClock());
if (want('episodes')) r.episodes = await part('episodes', () => runEpisodeCrash({ cycles: o.episodeCycles, seed: o.seed, log: say }));
if (want('dream')) r.dream = await part('dream', () => runDreamKill({ cycles: Math.max(2, o.episodeCycles), seed: o.seed, log: say }));

const out = path.join(REPO, 'bench', 'results', process.argv.includes('--quick') ? 'chaos-quick.json' : 'chaos.json');
// `--merge`: parts not run this time are taken from the last saved run (e.g. `--only=crash` then the rest)
if (process.argv.includes('--merge') && existsSync(out)) {
  const old = JSON.parse(readFileSync(out, 'utf8')) as Results;
  for (const k of ['crash', 'faults', 'overload', 'hostile', 'diskClock', 'episodes', 'dream'] as const)
    if (!r[k] && old[k]) (r as any)[k] = old[k];
  for (const [k, v] of Object.entries(old.took ?? {})) r.took[k] ??= v;
}

const ms = (xs: number[] | undefined) => (xs?.length ? `${Math.round(median(xs))} / ${Math.round(Math.max(...xs))} ms` : '—');
const rows: Array<[string, string]> = [];
if (r.crash) {
  const c = r.crash;
  rows.push(['kill -9 cycles run', String(c.cycles)]);
  rows.push(['acknowledged writes', String(c.acknowledged)]);
  rows.push(['lost acknowledged writes', String(c.lost)]);
  rows.push(['vault/index/git divergences', String(c.divergences)]);
  rows.push(['writes in flight at the kill (unacknowledged)', String(c.unacknowledgedInFlight)]);
  rows.push(['process start after kill → search answered p50 / max', ms(c.servingMs)]);
  rows.push(['restart → caught up p50 / max', ms(c.caughtUpMs)]);
}
if (r.faults) {
  const f = r.faults;
  rows.push(['actor faults injected', String(f.faults)]);
  rows.push([
    'restarts by actor',
    Object.entries(f.restartsByActor)
      .map(([a, n]) => `${a} ${n}`)
      .join(', '),
  ]);
  rows.push(['escalations', String(f.escalations)]);
  rows.push(['queued work lost after faults', String(f.lostWork)]);
  rows.push(['fault → actor serving again p50 / max (goal ≤ 1 s)', ms(f.faultToServingMs)]);
  rows.push(['fault → new note searchable p50 / max', ms(f.faultToSearchableMs)]);
}
if (r.overload) {
  const v = r.overload;
  rows.push([`overload: ${v.notes} notes dropped + ${o.agents} agents`, `caught up in ${Math.round(v.catchUpMs / 1000)} s`]);
  rows.push(['peak RSS under overload (baseline)', `${Math.round(v.peakRssMB)} MB (${Math.round(v.baselineRssMB)} MB)`]);
  rows.push([
    'peak mailbox depth',
    Object.entries(v.peakMailbox)
      .map(([a, n]) => `${a} ${n}`)
      .join(', '),
  ]);
  rows.push(['searches (errors, showing pending)', `${v.searches} (${v.searchErrors}, ${v.searchesShowingPending})`]);
  rows.push(['search p50 / p99 under load', `${Math.round(v.searchP50Ms)} / ${Math.round(v.searchP99Ms)} ms`]);
  rows.push(['writes ok / busy / timed out', `${v.writesOk} / ${v.writesBusy} / ${v.writesTimedOut}`]);
  rows.push(['write p50 / p99 under load', `${Math.round(v.writeP50Ms)} / ${Math.round(v.writeP99Ms)} ms`]);
}
if (r.hostile) {
  const h = r.hostile;
  rows.push(['hostile inputs tried / escaped / crashed', `${h.tried} / ${h.escaped} / ${h.crashed}`]);
  rows.push(['hostile inputs refused with a wrong reason', String(h.wrongReason)]);
  // a part kept by --merge from a run older than this field has none
  const missing = (h as Partial<typeof h>).missingKinds ?? [];
  rows.push(['hostile input kinds never tried', missing.length === 0 ? 'none' : missing.join('; ')]);
}
if (r.diskClock) {
  for (const c of r.diskClock.checks)
    rows.push([`disk/clock: ${c.name}`, `${c.ok ? 'ok' : 'FAILED'}${c.ms !== undefined ? ` (${Math.round(c.ms)} ms)` : ''}`]);
}
if (r.episodes) {
  const e = r.episodes;
  rows.push(['episodes: kill -9 cycles during bursts', String(e.cycles)]);
  rows.push(['episodes acknowledged / lost from the journal / not in the index', `${e.acknowledged} / ${e.lost} / ${e.notProjected}`]);
  rows.push(['episode requests cut off by the kill (not acknowledged)', String(e.cutOff)]);
  rows.push(['episodes: restart → caught up p50 / max', ms(e.caughtUpMs)]);
}
if (r.dream) {
  rows.push(['dream: kill -9 cycles mid-run / pages the killed runs wrote', `${r.dream.cycles} / ${r.dream.pagesBeforeKill}`]);
  rows.push(['dream: watermark after the resumed run', r.dream.watermark ?? '—']);
}
const problems = [
  ...(r.crash?.problems ?? []),
  ...(r.faults?.problems ?? []),
  ...(r.overload?.problems ?? []),
  ...(r.hostile?.problems ?? []),
  ...(r.diskClock?.problems ?? []),
  ...(r.episodes?.problems ?? []),
  ...(r.dream?.problems ?? []),
];
rows.push(['problems', String(problems.length)]);

const w = Math.max(...rows.map(([k]) => k.length));
const cpus = os.cpus().length;
console.log(`\nmemvault chaos — ${new Date().toISOString()}, ${cpus} cores, load ${os.loadavg()[0]!.toFixed(1)}, seed ${o.seed}\n`);
for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
for (const p of problems.slice(0, 50)) console.log(`  ! ${p}`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), options: o, load: os.loadavg(), ...r, problems }, null, 2) + '\n');
console.log(`\nsaved ${path.relative(REPO, out)}`);
process.exitCode = problems.length ? 1 : 0;
