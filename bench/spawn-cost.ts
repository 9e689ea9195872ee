// What a git process spawned from the daemon costs the daemon's other threads: a worker thread writes to 200 MB of
// its memory in passes while this process starts `git --version` 10 times a second — forked from here (what the git
// writer did) or through the spawner process (what it does now) — beside the same worker with no spawns.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/spawn-cost.js [--runs 3] [--seconds 4] [--rate 10] [--mb 200]
// Prints a table (median passes/s per mode, and the ratio to no spawns) and writes bench/results/spawn-cost.json.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { spawnVia } from '../actors/git-writer/spawner.js';
import { cleanGitEnv } from '../actors/git-writer/git-cli.js';
import { intArg, machine, median, printTable, writeResults } from './harness.js';

type Mode = 'no spawns' | 'forked from this process' | 'through the spawner';
const MODES: Mode[] = ['no spawns', 'forked from this process', 'through the spawner'];

const runs = intArg('runs', 3);
const seconds = intArg('seconds', 4);
const rate = intArg('rate', 10);
const sizeMb = intArg('mb', 200);

// the worker: touches one byte per page of a buffer over and over, reporting passes and its minor page faults
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const buf = Buffer.alloc(workerData.mb * 1024 * 1024, 1);
const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
const faults = () => Number(fs.readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[7]);
parentPort.once('message', () => {
  const f0 = faults();
  let passes = 0;
  const end = Date.now() + workerData.ms;
  while (Date.now() < end) { for (let i = 0; i < buf.length; i += 4096) buf[i]++; passes++; }
  parentPort.postMessage({ passes, faults: faults() - f0 });
});
parentPort.postMessage('ready');
`;

async function once(mode: Mode): Promise<{ passesPerS: number; faultsPerS: number; spawns: number }> {
  const w = new Worker(WORKER, { eval: true, workerData: { mb: sizeMb, ms: seconds * 1000 } });
  await new Promise((r) => w.once('message', r));
  const env = cleanGitEnv();
  let spawns = 0;
  const spawn = (): void => {
    spawns++;
    if (mode === 'forked from this process') execFile('git', ['--version'], { env }, () => {});
    else void spawnVia({ file: 'git', args: ['--version'], cwd: process.cwd(), env });
  };
  const timer = mode === 'no spawns' ? null : setInterval(spawn, 1000 / rate);
  w.postMessage('go');
  const r = await new Promise<{ passes: number; faults: number }>((res) => w.once('message', res));
  if (timer) clearInterval(timer);
  await w.terminate();
  return { passesPerS: r.passes / seconds, faultsPerS: r.faults / seconds, spawns };
}

async function main(): Promise<void> {
  await spawnVia({ file: 'git', args: ['--version'], cwd: process.cwd(), env: cleanGitEnv() }); // the spawner is up
  const by = new Map<Mode, { passesPerS: number; faultsPerS: number }[]>(MODES.map((m) => [m, []]));
  for (let i = 0; i < runs; i++) for (const m of MODES) by.get(m)!.push(await once(m)); // interleaved: noise hits all
  const base = median(by.get('no spawns')!.map((x) => x.passesPerS));
  const rows = MODES.map((m) => {
    const xs = by.get(m)!;
    const p = median(xs.map((x) => x.passesPerS));
    return { mode: m, passesPerS: p, faultsPerS: median(xs.map((x) => x.faultsPerS)), ratio: p / base };
  });
  console.log(
    `\nA worker writing to ${sizeMb} MB while git starts ${rate}×/s (${runs} runs of ${seconds} s, medians; load ${machine().loadavg1m.toFixed(2)})\n`,
  );
  printTable(
    ['git started', 'passes/s', 'page faults/s', 'vs no spawns'],
    rows.map((r) => [r.mode, r.passesPerS.toFixed(1), Math.round(r.faultsPerS).toString(), `${(100 * r.ratio).toFixed(1)} %`]),
  );
  const out = writeResults('spawn-cost', {
    machine: machine(),
    runs,
    seconds,
    rate,
    mb: sizeMb,
    rows,
    loadavg: readFileSync('/proc/loadavg', 'utf8').trim(),
  });
  console.log(`\nwrote ${out}`);
}

await main();
