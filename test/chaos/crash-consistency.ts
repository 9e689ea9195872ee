// Crash consistency under kill -9: cycles of start → catch up → check invariants → mixed load → kill -9, on one
// vault and data dir, with a ledger in the runner that survives each kill. Issue 4, part 1.
import path from 'node:path';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { ProcessDaemon } from './lib/daemon-process.js';
import { awaitGitClean, checkInvariants } from './lib/invariants.js';
import { Ledger, sha256, withSum } from './lib/ledger.js';
import { loadCorpus, rng, startLoad } from './lib/load.js';
import { Model } from './lib/model.js';

export interface CrashReport {
  cycles: number;
  acknowledged: number;
  lost: number;
  divergences: number;
  unacknowledgedInFlight: number;
  servingMs: number[];
  caughtUpMs: number[];
  problems: string[];
}

/** A restart slower than this to answer a search is a divergence. */
const SERVING_BOUND_MS = 10_000;
const AGENTS = ['agent-1', 'agent-2', 'agent-3', 'agent-4'];

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
  } finally {
    await d.stop();
    report.acknowledged = ledger.count('acked');
    report.unacknowledgedInFlight = ledger.count('unknown');
    if (report.problems.length === 0 && !opts.keep) v.cleanup();
    else log(`kept ${path.dirname(v.dir)} for inspection`);
  }
  return report;
}
