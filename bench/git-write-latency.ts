// What one agent write costs in git: raw git from a shell loop beside GitRepo.commit (p50/p99, commits/s, processes).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/git-write-latency.js [--commits 300] [--runs 3] [--notes 4612]
// The vault is the tldr corpus (4,612 notes), committed once, in two layouts: flat as shipped (one 4,612-entry tree,
// the worst case: every commit rewrites it) and spread over folders by first letter. Per layout and run, each
// variant starts from a fresh copy of that repository and makes `--commits` commits:
//   (a) shell loops of plain git — the brief's `echo > f; git add f; git commit` and the one-process `commit --only`,
//       with git's defaults and with memvault's settings — and one long-lived `git fast-import` as a ceiling;
//   (b) GitRepo.commit after writing the note (writeFile + fsync, timed apart): an existing note, a new note, and
//       8 agents writing at once through one GitRepo; then undoLast.
// Figures are medians over the runs. Processes per operation are counted from GIT_TRACE2_EVENT in a separate
// untimed pass. Prints a table and writes bench/results/git-write-latency.json.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitRepo } from '../actors/git-writer/git-repo.js';
import { cleanGitEnv } from '../actors/git-writer/git-cli.js';
import { CORPORA, corpusFiles, intArg, machine, median, pct, printTable, spread, writeResults } from './harness.js';

const COMMITS = intArg('commits', 300);
const RUNS = intArg('runs', 3);
const NOTES = intArg('notes', 4612);
const AGENTS = intArg('agents', 8);
const MEMVAULT = { name: 'memvault', email: 'memvault@localhost' };
const PERSON = { name: 'Bench Person', email: 'person@localhost' };

// Exactly the settings GitRepo passes to `git commit` (see WRITE_CONFIG in actors/git-writer/git-repo.ts).
const MEMVAULT_CONFIG = '-c maintenance.auto=false -c gc.auto=0 -c commit.gpgSign=false -c rerere.enabled=false';

type Layout = 'flat' | 'folders';

interface Sample {
  variant: string;
  processes: string;
  commitsPerSec: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** write + fsync + commit, for the GitRepo variants */
  fullP50Ms: number | null;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'memvault-git-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const shellEnv = cleanGitEnv({
  GIT_AUTHOR_NAME: MEMVAULT.name,
  GIT_AUTHOR_EMAIL: MEMVAULT.email,
  GIT_COMMITTER_NAME: MEMVAULT.name,
  GIT_COMMITTER_EMAIL: MEMVAULT.email,
});

function sh(cwd: string, script: string, input?: string): number {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { cwd, env: shellEnv, input, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench script failed (${r.status}): ${r.stderr}\n${script}`);
  return ms;
}

function notePath(layout: Layout, name: string): string {
  if (layout === 'flat') return name;
  const c = name[0]!.toLowerCase();
  return `${/[a-z]/.test(c) ? c : '_'}/${name}`;
}

/** The corpus as a committed vault: built once per layout, copied per variant. */
async function baseVault(layout: Layout): Promise<{ dir: string; notes: string[] }> {
  const dir = path.join(tmp, `base-${layout}`);
  mkdirSync(dir);
  const names = spread(corpusFiles('tldr-common'), NOTES);
  const notes = names.map((n) => notePath(layout, n));
  names.forEach((n, i) => {
    mkdirSync(path.dirname(path.join(dir, notes[i]!)), { recursive: true });
    copyFileSync(path.join(CORPORA, 'tldr-common', n), path.join(dir, notes[i]!));
  });
  const repo = await GitRepo.open(dir, { author: MEMVAULT, person: PERSON });
  if (!(repo instanceof GitRepo)) throw new Error(`${repo.reason}: ${repo.message}`);
  sh(dir, 'git gc -q'); // a settled repository, as a long-lived vault would be after its first maintenance
  return { dir, notes };
}

function fresh(base: string, name: string): string {
  const dir = path.join(tmp, name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true });
  return dir;
}

const q = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

function shellLoop(dir: string, notes: string[], kind: 'add+commit' | 'only' | 'only-memvault' | 'new-add+only'): number {
  const target = notes[Math.floor(notes.length / 2)]!;
  const folder = path.dirname(target) === '.' ? '' : `${path.dirname(target)}/`;
  const body = {
    'add+commit': `printf 'edit %s\\n' $i >> ${q(target)}; git add -- ${q(target)}; git commit -q -m "m $i"`,
    only: `printf 'edit %s\\n' $i >> ${q(target)}; git commit -q --only -m "m $i" -- ${q(target)}`,
    'only-memvault': `printf 'edit %s\\n' $i >> ${q(target)}; git ${MEMVAULT_CONFIG} commit -q --only --no-verify -m "m $i" -- ${q(target)}`,
    'new-add+only': `printf 'new %s\\n' $i > ${q(folder)}"new-$i.md"; git add -- ${q(folder)}"new-$i.md"; git ${MEMVAULT_CONFIG} commit -q --only --no-verify -m "m $i" -- ${q(folder)}"new-$i.md"`,
  }[kind];
  const ms = sh(dir, `for i in $(seq 1 ${COMMITS}); do ${body}; done`);
  return COMMITS / (ms / 1000);
}

/** One `git fast-import` for all commits: the floor for "one process", but it leaves the index behind HEAD. */
function fastImport(dir: string, notes: string[]): number {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: dir, env: shellEnv, encoding: 'utf8' }).stdout.trim();
  const target = notes[Math.floor(notes.length / 2)]!;
  let text = readFileSync(path.join(dir, target), 'utf8');
  const parts: string[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (let i = 1; i <= COMMITS; i++) {
    text += `edit ${i}\n`;
    const msg = `m ${i}\n`;
    parts.push(
      `commit refs/heads/main\ncommitter ${MEMVAULT.name} <${MEMVAULT.email}> ${now} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`,
      i === 1 ? `from ${head}\n` : '',
      `M 100644 inline ${target}\ndata ${Buffer.byteLength(text)}\n${text}\n`,
    );
  }
  const ms = sh(dir, 'git fast-import --quiet', parts.join(''));
  return COMMITS / (ms / 1000);
}

async function openBench(dir: string): Promise<GitRepo> {
  const repo = await GitRepo.open(dir, { author: MEMVAULT, person: PERSON, maintenanceEvery: 1_000_000 });
  if (!(repo instanceof GitRepo)) throw new Error(`${repo.reason}: ${repo.message}`);
  return repo;
}

function durableWrite(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

interface Timed {
  commitMs: number[];
  fullMs: number[];
  wallMs: number;
}

/** Writes then commits, one at a time (`kind` existing: the same tracked note each time; new: a new note each time). */
async function gitRepoSerial(dir: string, notes: string[], kind: 'existing' | 'new'): Promise<Timed> {
  const repo = await openBench(dir);
  const target = notes[Math.floor(notes.length / 2)]!;
  const folder = path.dirname(target) === '.' ? '' : `${path.dirname(target)}/`;
  const base = readFileSync(path.join(dir, target), 'utf8');
  const commitMs: number[] = [];
  const fullMs: number[] = [];
  const t0 = performance.now();
  for (let i = 1; i <= COMMITS; i++) {
    const p = kind === 'existing' ? target : `${folder}agent-note-${i}.md`;
    const a = performance.now();
    durableWrite(path.join(dir, p), kind === 'existing' ? `${base}edit ${i}\n` : `# note ${i}\n`);
    const b = performance.now();
    const r = await repo.commit([p], { op: 'write', paths: [p], agent: 'bench', reason: `edit ${i}` });
    const c = performance.now();
    if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
    commitMs.push(c - b);
    fullMs.push(c - a);
  }
  return { commitMs, fullMs, wallMs: performance.now() - t0 };
}

/** AGENTS loops at once, each writing its own note and committing; GitRepo serialises the commits. */
async function gitRepoConcurrent(dir: string, notes: string[]): Promise<Timed> {
  const repo = await openBench(dir);
  const targets = spread(notes, AGENTS);
  const bases = targets.map((p) => readFileSync(path.join(dir, p), 'utf8'));
  const commitMs: number[] = [];
  const fullMs: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    targets.map(async (p, k) => {
      for (let i = k; i < COMMITS; i += AGENTS) {
        const a = performance.now();
        durableWrite(path.join(dir, p), `${bases[k]}edit ${i}\n`);
        const b = performance.now();
        const r = await repo.commit([p], { op: 'write', paths: [p], agent: `agent-${k}` });
        const c = performance.now();
        if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
        commitMs.push(c - b);
        fullMs.push(c - a);
      }
    }),
  );
  return { commitMs, fullMs, wallMs: performance.now() - t0 };
}

const UNDOS = Math.min(30, COMMITS);
async function gitRepoUndo(dir: string, notes: string[]): Promise<Timed> {
  const repo = await openBench(dir);
  const targets = spread(notes, UNDOS);
  for (const [i, p] of targets.entries()) {
    durableWrite(path.join(dir, p), `rewritten ${i}\n`);
    const r = await repo.commit([p], { op: 'write', paths: [p], agent: 'bench' });
    if (!r.ok) throw new Error(r.message);
  }
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < UNDOS; i++) {
    const a = performance.now();
    const r = await repo.undoLast({ byAgent: 'bench' });
    ms.push(performance.now() - a);
    if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  }
  return { commitMs: ms, fullMs: [], wallMs: performance.now() - t0 };
}

/** git processes (and non-git children git starts, e.g. the editor's sh) per GitRepo operation, from trace2. */
async function processesPer(base: string, notes: string[]): Promise<Record<string, number>> {
  const dir = fresh(base, 'count');
  const trace = path.join(tmp, 'trace2.json');
  const count = (): { git: number; other: number } => {
    let text = '';
    try {
      text = readFileSync(trace, 'utf8');
    } catch {
      return { git: 0, other: 0 };
    }
    rmSync(trace);
    const ev = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; child_class?: string; argv?: string[] });
    // Each git process logs its own 'start'; other children (the editor's sh) only appear as a parent's child_start.
    const isGit = (argv: string[] | undefined): boolean => /(^|\/)git$/.test(argv?.[0] ?? '');
    return {
      git: ev.filter((e) => e.event === 'start').length,
      other: ev.filter((e) => e.event === 'child_start' && !isGit(e.argv)).length,
    };
  };
  const repo = await GitRepo.open(dir, { author: MEMVAULT, person: PERSON, env: { GIT_TRACE2_EVENT: trace } });
  if (!(repo instanceof GitRepo)) throw new Error(repo.message);
  count();
  const n = 10;
  const out: Record<string, number> = {};
  const measure = async (label: string, fn: (i: number) => Promise<unknown>, opsPerCall = 1): Promise<void> => {
    for (let i = 0; i < n; i++) await fn(i);
    const c = count();
    out[label] = Math.round(((c.git + c.other) / (n * opsPerCall)) * 100) / 100;
  };
  const target = notes[0]!;
  await measure('write existing note', async (i) => {
    durableWrite(path.join(dir, target), `v${i}\n`);
    await repo.commit([target], { op: 'write', paths: [target], agent: 'bench' });
  });
  await measure('write new note', async (i) => {
    durableWrite(path.join(dir, `count-${i}.md`), `n${i}\n`);
    await repo.commit([`count-${i}.md`], { op: 'write', paths: [`count-${i}.md`], agent: 'bench' });
  });
  const group = spread(notes, AGENTS);
  await measure(
    `${AGENTS} agents at once, per commit`,
    async (i) => {
      for (const p of group) durableWrite(path.join(dir, p), `round ${i} ${p}\n`);
      await Promise.all(group.map((p) => repo.commit([p], { op: 'write', paths: [p], agent: 'bench' })));
    },
    AGENTS,
  );
  await measure('undo', async () => repo.undoLast({ byAgent: 'bench' }));
  await measure('human edit', async (i) => {
    durableWrite(path.join(dir, target), `person ${i}\n`);
    await repo.commitHumanChanges();
  });
  return out;
}

const row = (variant: string, processes: string, commitsPerSec: number, t?: Timed): Sample => ({
  variant,
  processes,
  commitsPerSec,
  p50Ms: t ? pct(t.commitMs, 50) : null,
  p99Ms: t ? pct(t.commitMs, 99) : null,
  fullP50Ms: t && t.fullMs.length > 0 ? pct(t.fullMs, 50) : null,
});

async function main(): Promise<void> {
  const startedAt = machine();
  const gitV = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const layouts: Record<string, unknown> = {};
  for (const layout of ['flat', 'folders'] as const) {
    const { dir: base, notes } = await baseVault(layout);
    const processes = await processesPer(base, notes);
    const procs = (k: string): string => String(processes[k] ?? '?');
    const runs: Sample[][] = [];
    const load: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const s: Sample[] = [];
      s.push(row('(a) shell: add + commit, git defaults', '2 + maintenance', shellLoop(fresh(base, 'a1'), notes, 'add+commit')));
      s.push(row('(a) shell: commit --only, git defaults', '1 + maintenance', shellLoop(fresh(base, 'a2'), notes, 'only')));
      s.push(row('(a) shell: commit --only, memvault -c', '1', shellLoop(fresh(base, 'a3'), notes, 'only-memvault')));
      s.push(row('(a) shell: new note, add + commit --only', '2', shellLoop(fresh(base, 'a4'), notes, 'new-add+only')));
      s.push(row('(a) one fast-import for all (index stale)', '1 total', fastImport(fresh(base, 'a5'), notes)));
      const b1 = await gitRepoSerial(fresh(base, 'b1'), notes, 'existing');
      s.push(row('(b) GitRepo.commit, existing note', procs('write existing note'), COMMITS / (b1.wallMs / 1000), b1));
      const b2 = await gitRepoSerial(fresh(base, 'b2'), notes, 'new');
      s.push(row('(b) GitRepo.commit, new note', procs('write new note'), COMMITS / (b2.wallMs / 1000), b2));
      const b3 = await gitRepoConcurrent(fresh(base, 'b3'), notes);
      s.push(row(`(b) GitRepo.commit, ${AGENTS} agents, one by one`, procs('write existing note'), COMMITS / (b3.wallMs / 1000), b3));
      const b4 = await gitRepoUndo(fresh(base, 'b4'), notes);
      s.push(row('(b) GitRepo.undoLast (per undo)', procs('undo'), UNDOS / (b4.wallMs / 1000), b4));
      runs.push(s);
      load.push(os.loadavg()[0]!);
      console.error(`${layout}: run ${run + 1}/${RUNS} done`);
    }
    const med: Sample[] = runs[0]!.map((s0, i) => {
      const col = (k: 'commitsPerSec' | 'p50Ms' | 'p99Ms' | 'fullP50Ms'): number | null =>
        s0[k] === null ? null : median(runs.map((r) => r[i]![k] as number));
      return { ...s0, commitsPerSec: col('commitsPerSec')!, p50Ms: col('p50Ms'), p99Ms: col('p99Ms'), fullP50Ms: col('fullP50Ms') };
    });
    console.log(
      `\n${layout === 'flat' ? `Flat vault: ${notes.length} notes in one folder` : `Folders: the same ${notes.length} notes in ${new Set(notes.map((n) => path.dirname(n))).size} folders`} — ${COMMITS} commits per variant, median of ${RUNS} runs`,
    );
    const f = (x: number | null, d = 1): string => (x === null ? '' : x.toFixed(d));
    printTable(
      ['variant', 'processes/commit', 'commits/s', 'p50 ms', 'p99 ms', 'write+fsync+commit p50'],
      med.map((s) => [s.variant, s.processes, f(s.commitsPerSec, 0), f(s.p50Ms), f(s.p99Ms), f(s.fullP50Ms)]),
      2,
    );
    console.log(
      `processes per GitRepo operation (GIT_TRACE2_EVENT): ${Object.entries(processes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(`load average after each run: ${load.map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} CPUs`);
    layouts[layout] = {
      notes: notes.length,
      folders: new Set(notes.map((n) => path.dirname(n))).size,
      median: med,
      runs,
      processes,
      loadAfterRun: load,
    };
    rmSync(base, { recursive: true, force: true });
  }
  const out = writeResults('git-write-latency', {
    bench: 'git-write-latency',
    date: new Date().toISOString(),
    machine: { ...startedAt, loadavg1mAtEnd: os.loadavg()[0] },
    git: gitV,
    commits: COMMITS,
    runs: RUNS,
    agents: AGENTS,
    goal: { fullWriteP50Ms: 15, writesPerSecWith8Agents: 100, reference: 'basic-memory: p50 91 ms, ~6.7 notes/s' },
    layouts,
  });
  console.log(`\nwrote ${out}`);
}

await main();
