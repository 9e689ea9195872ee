// What an agent's `vault_write` costs end to end through a running daemon (HTTP → gateway → git writer → durable
// file + one commit → answer), beside a shell loop of `git add` + `git commit` on the same machine in the same run.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/tool-write-latency.js [--writes 200] [--agents 8] [--notes 500] [--runs 3]
// The vault holds `--notes` tldr pages (committed once by the daemon's first start). Per run: one agent edits its own
// note `--writes` times, one call after another (p50/p99 per write); then `--agents` agents do the same at once
// (writes/s, p50/p99); then the shell loop edits one note `--writes` times in a copy of the repository. Medians over
// the runs. Prints a table and writes bench/results/tool-write-latency.json.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import path from 'node:path';
import { BenchRoot, corpusFiles, intArg, machine, median, newDaemon, pct, postJson, printTable, spread, writeResults } from './harness.js';

const WRITES = intArg('writes', 200);
const AGENTS = intArg('agents', 8);
const NOTES = intArg('notes', 500);
const RUNS = intArg('runs', 3);

/** `n` edits of `Inbox/<who>.md`, one after another; the latency of each, in ms. */
async function agentLoop(port: number, token: string, who: string, n: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await postJson(
        agent,
        port,
        token,
        '/v1/tools/vault_write',
        { path: `Inbox/${who}.md`, content: `# ${who}\n\nedit ${i}\n` },
        who,
      );
      ms.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`vault_write answered ${r.status}: ${r.text}`);
    }
  } finally {
    agent.destroy();
  }
  return ms;
}

/** The shell reference: `--writes` edits of one note, each `git add` + `git commit` (two processes), in a repo copy. */
function shellLoop(repo: string): number {
  const script = `for i in $(seq 1 ${WRITES}); do echo "edit $i" > Inbox/shell.md; git add Inbox/shell.md; git commit -q -m "edit $i"; done`;
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' },
  });
  if (r.status !== 0) throw new Error(`shell loop failed: ${r.stderr}`);
  return WRITES / ((performance.now() - t0) / 1000);
}

interface RunFigures {
  oneP50: number;
  oneP99: number;
  manyPerSec: number;
  manyP50: number;
  manyP99: number;
  shellPerSec: number;
}

async function oneRun(root: BenchRoot, files: string[]): Promise<RunFigures> {
  const vault = root.vault('tldr-common', files);
  mkdirSync(path.join(vault, 'Inbox'), { recursive: true });
  const cfg = root.config(vault, root.dataDir());
  const d = newDaemon(cfg, 'serve');
  await d.start(); // the git writer's start imports the notes as the first commit
  await d.whenCaughtUp();
  try {
    const port = d.board.get('gatewayPort');
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    await agentLoop(port, token, 'warmup', 5);
    const one = await agentLoop(port, token, 'solo', WRITES);
    const t0 = performance.now();
    const per = Math.ceil(WRITES / AGENTS);
    const many = (await Promise.all(Array.from({ length: AGENTS }, (_, k) => agentLoop(port, token, `agent-${k}`, per)))).flat();
    const manyPerSec = many.length / ((performance.now() - t0) / 1000);
    const copy = path.join(root.dir, `shell-${Date.now()}`);
    cpSync(vault, copy, { recursive: true, filter: (p) => !p.includes(`${path.sep}.memvault`) });
    return {
      oneP50: median(one),
      oneP99: pct(one, 99),
      manyPerSec,
      manyP50: median(many),
      manyP99: pct(many, 99),
      shellPerSec: shellLoop(copy),
    };
  } finally {
    await d.stop('bench done', 0);
  }
}

async function main(): Promise<void> {
  const m = machine();
  console.error(
    `tool-write-latency on ${m.cpu} (${m.cpus} cores, load ${m.loadavg1m.toFixed(2)}): ${WRITES} writes, ${AGENTS} agents, ${NOTES} notes, ${RUNS} runs`,
  );
  const root = await BenchRoot.create('tool-write');
  const files = spread(corpusFiles('tldr-common'), NOTES);
  const runs: RunFigures[] = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      runs.push(await oneRun(root, files));
      console.error(`  run ${r + 1}/${RUNS} done`);
    }
  } finally {
    root.cleanup();
  }
  const med = (k: keyof RunFigures): number => median(runs.map((r) => r[k]));
  const ratio = median(runs.map((r) => r.manyPerSec / r.shellPerSec));
  printTable(
    ['what', 'figure', 'reference'],
    [
      ['1 agent, vault_write over HTTP', `p50 ${med('oneP50').toFixed(1)} ms, p99 ${med('oneP99').toFixed(1)} ms`, ''],
      [
        `${AGENTS} agents at once`,
        `${med('manyPerSec').toFixed(1)} writes/s (p50 ${med('manyP50').toFixed(1)} ms, p99 ${med('manyP99').toFixed(1)} ms)`,
        `shell git add + commit: ${med('shellPerSec').toFixed(1)} commits/s (ratio ${ratio.toFixed(2)})`,
      ],
    ],
    3,
  );
  const out = writeResults('tool-write-latency', {
    bench: 'tool-write-latency',
    date: new Date().toISOString(),
    machine: m,
    writes: WRITES,
    agents: AGENTS,
    notes: NOTES,
    runs,
    median: Object.fromEntries((Object.keys(runs[0]!) as Array<keyof RunFigures>).map((k) => [k, med(k)])),
    ratioToShell: ratio,
  });
  console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
}

await main();
