// Crash consistency under kill -9: cycles of start → catch up → check invariants → mixed load → kill -9, on one
// vault and data dir, with a ledger in the runner that survives each kill. Issue 4, part 1.
import path from 'node:path';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { ProcessDaemon } from './lib/daemon-process.js';
import { awaitGitClean, checkInvariants } from './lib/invariants.js';
import { Ledger, sha256, withSum } from './lib/ledger.js';
import { loadCorpus, rng, startLoad } from './lib/load.js';
import { Model } from './lib/model.js';
import { addAgent } from '../../actors/gateway/agents/store.js';
import { git } from '../helpers/daemon.js';

export interface CrashReport {
  cycles: number;
  acknowledged: number;
  lost: number;
  divergences: number;
  unacknowledgedInFlight: number;
  servingMs: number[];
  caughtUpMs: number[];
  problems: string[];
  /** The read-only agent's writes: every one must be refused `forbidden`, none may reach git. */
  readOnly: { attempts: number; refused: number; inFlight: number; leaks: string[] };
}

/** A restart slower than this to answer a search is a divergence. */
const SERVING_BOUND_MS = 10_000;
// each agent calls with its own credential (agents.json): three may write in Inbox, one may only read — its writes
// (the same load loop) must all be refused, and nothing of it may appear in git, across every kill
const WRITERS = ['agent-1', 'agent-2', 'agent-3'];
const READER = 'reader';
const AGENTS = [...WRITERS, READER];

export async function runCrashCycles(opts: {
  cycles: number;
  seed?: number;
  log?: (line: string) => void;
  keep?: boolean;
}): Promise<CrashReport> {
  const seed = opts.seed ?? Date.now() % 1_000_000;
  const log = opts.log ?? (() => {});
  const rand = rng(seed);
  const corpus = loadCorpus(); // throws naming the folder when the shared corpora are missing

  const seedNote = withSum('# Seed\n\nthe first daily note\n');
  const v = makeVault({ 'Daily/seed.md': seedNote });
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 200\n', { logLevel: 'info' });
  const logFile = path.join(path.dirname(v.dir), 'daemon.log');
  const d = new ProcessDaemon({ vault: v.dir, configFile: cfg.config_file!, dataDir: cfg.data_dir, logFile });
  for (const a of AGENTS) {
    const grant = a === READER ? { scope: 'read' as const, folders: null } : { scope: 'write' as const, folders: ['Inbox'] };
    const added = addAgent(cfg.data_dir, { name: a, ...grant, sensitive: false, rate: '1000/s' }, new Date());
    if (!added.ok) throw new Error(added.message);
    d.agentTokens[a] = added.result.token;
  }
  const ledger = new Ledger();
  const model = new Model();
  model.set('Daily/seed.md', sha256(seedNote));
  const report: CrashReport = {
    cycles: 0,
    acknowledged: 0,
    lost: 0,
    divergences: 0,
    unacknowledgedInFlight: 0,
    servingMs: [],
    caughtUpMs: [],
    problems: [],
    readOnly: { attempts: 0, refused: 0, inFlight: 0, leaks: [] },
  };
  log(`seed ${seed}; vault ${v.dir}; daemon log ${logFile}`);

  const restartAndCheck = async (cycle: number): Promise<void> => {
    const t0 = performance.now();
    const { servingMs } = await d.start();
    report.servingMs.push(Math.round(servingMs));
    if (servingMs > SERVING_BOUND_MS) {
      report.divergences++;
      report.problems.push(
        `cycle ${cycle}: the daemon took ${Math.round(servingMs)} ms to serve search after restart (bound ${SERVING_BOUND_MS} ms)`,
      );
    }
    await d.caughtUp();
    report.caughtUpMs.push(Math.round(performance.now() - t0));
    const dirty = await awaitGitClean(v.dir, 15_000);
    await d.caughtUp();
    if (cycle === 0) return; // nothing has been killed yet
    const r = await checkInvariants({ vault: v.dir, dataDir: cfg.data_dir, ledger, model, cycle });
    if (dirty !== null && r.problems.every((p) => !p.includes('git status')))
      r.problems.push(`cycle ${cycle}: git status stayed dirty: ${dirty.slice(0, 300)}`);
    report.divergences += r.problems.length;
    report.lost += r.lost;
    report.problems.push(...r.problems);
    for (const p of r.problems) log(p);
  };

  try {
    for (let cycle = 0; cycle < opts.cycles; cycle++) {
      await restartAndCheck(cycle);
      const c = cycle + 1;
      const killAtMs = 300 + Math.floor(rand() * 2700);
      // the bulk drop starts somewhere in the window, often still running when the kill lands
      const bulkAtMs = Math.floor(rand() * killAtMs * 0.9);
      const bulkCount = 50 + Math.floor(rand() * 151);
      const load = startLoad({ d, vault: v.dir, cycle: c, rand, ledger, model, corpus, bulkAtMs, bulkCount }, AGENTS);
      await new Promise((r) => setTimeout(r, killAtMs)); // the kill's random moment is the point of the test
      load.stopped = true; // no new requests: only those already in flight when the kill lands are unacknowledged
      await d.kill9();
      await load.stop();
      report.cycles++;
      const ops = ledger.cycleAgentOps(c);
      log(
        `cycle ${c}: killed at ${killAtMs} ms (bulk ${bulkCount} from ${bulkAtMs} ms, ${ledger.bulk.filter((b) => b.cycle === c).length} dropped); ` +
          `agent ops ${ops.length}: acked ${ledger.count('acked', c)}, refused ${ledger.count('refused', c)}, unknown ${ledger.count('unknown', c)}; ` +
          `person ops ${ledger.personOps.filter((p) => p.cycle === c).length}`,
      );
    }
    await restartAndCheck(opts.cycles);
    report.readOnly = readOnlyOutcome(ledger, v.dir);
    report.problems.push(...report.readOnly.leaks);
  } finally {
    await d.stop();
    report.acknowledged = ledger.count('acked');
    report.unacknowledgedInFlight = ledger.count('unknown');
    if (report.problems.length === 0 && !opts.keep) v.cleanup();
    else log(`kept ${path.dirname(v.dir)} for inspection`);
  }
  return report;
}

/** The read-only agent's ops: each refused `forbidden`; no commit names it, no note of its folder exists. */
function readOnlyOutcome(ledger: Ledger, vault: string): CrashReport['readOnly'] {
  const ops = ledger.agentOps.filter((o) => o.agent === READER);
  const leaks: string[] = [];
  let refused = 0;
  let inFlight = 0;
  for (const o of ops) {
    if (o.outcome?.kind === 'refused' && o.outcome.reason === 'forbidden') refused++;
    else if (o.outcome?.kind === 'unknown')
      inFlight++; // its answer cut off by the kill: git below says what happened
    else leaks.push(`the read-only agent's ${o.tool} #${o.seq} (${o.path ?? ''}) was not refused forbidden: ${JSON.stringify(o.outcome)}`);
  }
  const named = git(vault, 'log', '--format=%(trailers:key=Memvault-Agent,valueonly)')
    .split('\n')
    .filter((l) => l.trim() === READER);
  if (named.length) leaks.push(`${named.length} commits name the read-only agent`);
  if (git(vault, 'ls-files', `Inbox/${READER}`).trim() !== '') leaks.push(`Inbox/${READER}/ has files in git`);
  return { attempts: ops.length, refused, inFlight, leaks };
}
