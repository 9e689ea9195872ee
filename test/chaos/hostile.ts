// The hostile-input run (issue 4, part 4): thousands of generated hostile inputs against a real in-process daemon's
// gateway and watcher, on a vault that sits beside canary secrets — counting escapes, crashes and wrong reasons.
import { randomInt } from 'node:crypto';
import { allZero, indexConsistency, startDaemon, testConfig } from '../helpers/daemon.js';
import { makeClient, newTally, record, type Tally } from './hostile-client.js';
import { runAuth } from './hostile-auth.js';
import { MAX_FILE_BYTES, runDrops } from './hostile-files.js';
import { frontmatterProbes, markdownProbes } from './hostile-notes.js';
import { payloadProbes } from './hostile-payloads.js';
import { runPaths } from './hostile-run-paths.js';
import { runProbes } from './hostile-run-probes.js';
import { allKinds } from './hostile-kinds.js';
import { makeSandbox } from './hostile-sandbox.js';

/** The tally (its `problems`: up to ~20 examples of anything wrong, each naming the input), and how to re-run it. */
export interface HostileReport extends Tally {
  /** Re-run with this seed to get the same inputs. */
  seed: number;
  ms: number;
  /** `category: kind` for each kind its generator makes that the run never tried (hostile-kinds.ts). */
  missingKinds: string[];
}

/** Share of the inputs per category (each gets hundreds at 10,000). */
const SHARE = { paths: 0.35, payloads: 0.2, frontmatter: 0.1, markdown: 0.08, files: 0.15, auth: 0.12 };
const BATCHES = 5;

/**
 * Runs at least `inputs` hostile inputs (generated from `seed`, random when not given) in batches, with the escape
 * checks after every batch and the crash and consistency checks at the end.
 */
export async function runHostile(opts: { inputs: number; seed?: number; log?: (line: string) => void }): Promise<HostileReport> {
  const seed = opts.seed ?? randomInt(2 ** 31 - 1);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  log(`hostile: seed ${seed}, ${opts.inputs} inputs (reproduce with runHostile({ inputs: ${opts.inputs}, seed: ${seed} }))`);
  const started = performance.now();
  const tally: Tally = newTally();
  const sb = makeSandbox();
  const cfg = testConfig(sb.vault.dir, `chunker:\n  max_file_bytes: ${MAX_FILE_BYTES}\n`);
  const d = await startDaemon(cfg);
  const offSup = d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.child_exited' && !e.expected)
      record(tally, 'supervisor', 'crashed', `${e.child} exited: ${JSON.stringify(e.exit).slice(0, 300)}`);
  });
  try {
    await d.daemon.whenCaughtUp();
    if (process.env['HOSTILE_DEBUG']) log('hostile: caught up');
    await writesReady(d.api);
    sb.sealReserved();
    const client = makeClient(d.daemon, d.url, d.token);
    let next = 0;
    const pctx = { client, vault: cfg.vault, canary: sb.canary, tally, next: () => next++ };
    const share = (k: keyof typeof SHARE) => Math.ceil((opts.inputs * SHARE[k]) / BATCHES);
    for (let b = 0; b < BATCHES; b++) {
      const s = seed + b * 101;
      const t0 = performance.now();
      const phase = (name: string) =>
        process.env['HOSTILE_DEBUG'] &&
        log(`hostile: batch ${b + 1} ${name} (${tally.tried} tried, ${Math.round(performance.now() - t0)} ms)`);
      phase('paths');
      await runPaths(pctx, share('paths'), s + 1);
      phase('payloads');
      await runProbes(pctx, payloadProbes, share('payloads'), s + 2, 4);
      phase('frontmatter');
      await runProbes(pctx, frontmatterProbes, share('frontmatter'), s + 3, 4);
      phase('markdown');
      await runProbes(pctx, markdownProbes, share('markdown'), s + 4, 1);
      phase('auth');
      await runAuth({ url: d.url, token: d.token, tally }, share('auth'), s + 5);
      phase('files');
      await runDrops({ daemon: d.daemon, cfg, outside: sb.outside, canary: sb.canary, tally }, share('files'), s + 6, b);
      phase('checks');
      await escapeChecks(tally, sb.check(), d.search, sb.canary);
      log(
        `hostile: batch ${b + 1}/${BATCHES}: ${tally.tried} tried, ${tally.escaped} escaped, ${tally.crashed} crashed, ${tally.wrongReason} wrong (${Math.round(performance.now() - t0)} ms)`,
      );
    }
    // still serving, and the index agrees with itself once it has caught up
    const health = await d.api('GET', '/healthz');
    if (health.status !== 200) record(tally, 'final', 'crashed', `/healthz answered ${health.status}`);
    const found = await d.search('armadillo lantern', { mode: 'bm25' });
    if (found.results?.[0]?.path !== 'Inbox/welcome.md')
      record(tally, 'final', 'wrongReason', `search no longer finds Inbox/welcome.md: ${JSON.stringify(found.results?.[0] ?? null)}`);
    await d.daemon.whenCaughtUp();
    const consistency = await indexConsistency(cfg.data_dir);
    if (!allZero(consistency)) record(tally, 'final', 'wrongReason', `index inconsistent after catch-up: ${JSON.stringify(consistency)}`);
    await escapeChecks(tally, sb.check(), d.search, sb.canary);
  } finally {
    offSup();
    await d.stop();
    sb.vault.cleanup();
  }
  const { byCategory, escaped, crashed, wrongReason, problems, kinds } = tally;
  const missingKinds = Object.entries(allKinds()).flatMap(([cat, all]) =>
    [...all].filter((k) => !(kinds[cat]?.[k] ?? 0)).map((k) => `${cat}: ${k}`),
  );
  // the bookkeeping entries (supervisor, escape checks, final) are checks, not inputs
  const inputs = Object.entries(byCategory)
    .filter(([k]) => !['supervisor', 'checks', 'final'].includes(k))
    .reduce((a, [, v]) => a + v, 0);
  const ms = Math.round(performance.now() - started);
  return { tried: inputs, byCategory, escaped, crashed, wrongReason, problems, kinds, missingKinds, seed, ms };
}

/** The gateway offers the write tools once the git writer has opened the repository. */
async function writesReady(api: Awaited<ReturnType<typeof startDaemon>>['api']): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await api('GET', '/v1/tools');
    if (r.body?.writes?.available === true) return;
    if (Date.now() > deadline) throw new Error(`writes never became available: ${JSON.stringify(r.body?.writes)}`);
    await new Promise((res) => setTimeout(res, 50)); // polling the daemon's HTTP status: no event says "git ready"
  }
}

/** Files outside the vault and reserved files unchanged; the canary word found by no search mode. */
async function escapeChecks(
  tally: Tally,
  fsProblems: string[],
  search: (q: string, extra?: Record<string, unknown>) => Promise<any>,
  canary: string,
): Promise<void> {
  for (const p of fsProblems) record(tally, 'checks', 'escaped', p);
  for (const mode of ['bm25', 'hybrid']) {
    const r = await search(canary, { mode, k: 20, filters: { include_sensitive: false } });
    const hits = (r.results ?? []).filter((x: any) => JSON.stringify(x).includes(canary));
    if (hits.length > 0)
      record(tally, 'checks', 'escaped', `search (${mode}) for the canary returned ${hits.map((h: any) => h.path).join(', ')}`);
    const byPath = (r.results ?? []).filter((x: any) => /leak|passwd|outdir|link-out|dirlink/.test(String(x.path)));
    if (byPath.length > 0)
      record(
        tally,
        'checks',
        'escaped',
        `search (${mode}) returned a note read through a symlink out: ${byPath.map((h: any) => h.path).join(', ')}`,
      );
  }
}
