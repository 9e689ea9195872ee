// How long `memvault start` takes to serve, started from the bundles `make build` writes (dist/bundle/) and from the
// plain tsc modules (MEMVAULT_BUNDLES=0), alternating in the same run: a copy of the example vault indexed once, then
// each round starts the daemon on it, waits for its "memvault is serving" banner and a first hybrid search over HTTP,
// and stops it.
//
// Run: make build && node dist/bench/daemon-start.js [--rounds 8]
// Prints medians per mode and their ratio, and writes bench/results/daemon-start.json.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { intArg, machine, median, printTable, REPO, writeResults } from './harness.js';

const rounds = intArg('rounds', 8);
const BIN = path.join(REPO, 'bin', 'memvault');
type Mode = 'bundles' | 'plain modules';
const MODES: Mode[] = ['bundles', 'plain modules'];
const envFor = (m: Mode) => ({ ...process.env, MEMVAULT_BUNDLES: m === 'bundles' ? '1' : '0' });

async function startOnce(vault: string, mode: Mode): Promise<{ serveMs: number; searchMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'start', '--vault', vault, '--listen', '127.0.0.1:0'], {
    env: envFor(mode),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /metrics:\s+(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`memvault start exited ${code}: ${err.slice(-500)}`)));
  });
  const serveMs = performance.now() - t0;
  const token = readFileSync(path.join(vault, '.memvault', 'token'), 'utf8').trim();
  const r = await fetch(`${url}/v1/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'why did we pick SQLite', mode: 'hybrid' }),
  });
  if (r.status !== 200) throw new Error(`search answered ${r.status}`);
  await r.json();
  const searchMs = performance.now() - t0;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { serveMs, searchMs };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-start-'));
const vault = path.join(dir, 'vault');
cpSync(path.join(REPO, 'examples', 'vault'), vault, { recursive: true });
spawnSync('git', ['init', '-q', vault]);
const first = spawnSync(process.execPath, [BIN, 'index', '--vault', vault], { encoding: 'utf8' });
if (first.status !== 0) throw new Error(`memvault index failed: ${first.stderr}`);
const m = machine();
const samples: Record<Mode, { serveMs: number; searchMs: number }[]> = { bundles: [], 'plain modules': [] };
await startOnce(vault, 'bundles'); // warm the page cache and the model conversion cache
for (let i = 0; i < rounds; i++) for (const mode of i % 2 ? [...MODES].reverse() : MODES) samples[mode].push(await startOnce(vault, mode));
rmSync(dir, { recursive: true, force: true });

const med = (mode: Mode, k: 'serveMs' | 'searchMs') => median(samples[mode].map((s) => s[k]));
console.log(`daemon start on the example vault, ${rounds} rounds alternating; CPU: ${m.cpu} × ${m.cpus}, node ${m.node}`);
console.log(`1-min load average ${m.loadavg1m.toFixed(2)} before`);
printTable(
  ['started from', 'serving (banner) p50 ms', 'first hybrid search answered p50 ms'],
  MODES.map((mode) => [mode, med(mode, 'serveMs').toFixed(0), med(mode, 'searchMs').toFixed(0)]),
);
const ratio = med('plain modules', 'searchMs') / med('bundles', 'searchMs');
console.log(`plain / bundles, start to first search answered: ${ratio.toFixed(2)}×`);
console.log(`wrote ${writeResults('daemon-start', { machine: m, rounds, samples, ratio })}`);
