// `memvault run JOB [--date D] [--event UID]`: runs a scheduled job now through the daemon serving the vault, or
// through one started in this process for the run (caught up first, so the job sees every note), and prints what it
// came to. `memvault jobs` lists the jobs of the running daemon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JobRunResult, JobsList } from '../../messages/to-scheduler.js';
import { Daemon } from '../../main/daemon.js';
import { startOverDamage } from '../../main/start-over-damage.js';
import { makeLogger, ONE_SHOT_STDERR } from '../../supervisors/runtime/log.js';
import { configFor, EXIT, requireVault, type Args, UsageError } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';

type Endpoint = { url: string; token: string };

/** The running daemon, or one started here (stopped by the returned function). */
export async function daemonFor(a: Args): Promise<{ d: Endpoint; stop: () => Promise<void> }> {
  const cfg = configFor(a, { vaultRequired: false });
  const running = await findDaemon(cfg);
  if (running) return { d: running, stop: async () => {} };
  requireVault(cfg);
  const stderrLevel = ONE_SHOT_STDERR; // its threads' too
  const log = makeLogger('main', { level: cfg.log.level, stderrLevel, dataDir: cfg.data_dir });
  const daemon = await startOverDamage(cfg, log, () => new Daemon({ ...cfg, listen: '127.0.0.1:0' }, { mode: 'serve', log, stderrLevel }));
  await daemon.whenCaughtUp();
  const url = `http://127.0.0.1:${daemon.board.get('gatewayPort')}`;
  return { d: { url, token: readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim() }, stop: () => daemon.stop('memvault run done') };
}

/** One call through `daemonFor` (the daemon stopped after it); a failed call is printed and comes back as null. */
export async function callOnce<T>(a: Args, method: 'GET' | 'POST', route: string, body: unknown, timeoutMs: number): Promise<T | null> {
  const { d, stop } = await daemonFor(a);
  try {
    return await callDaemon<T>(d, method, route, body, timeoutMs);
  } catch (err) {
    process.stderr.write(`memvault: ${(err as Error).message}\n`);
    return null;
  } finally {
    await stop();
  }
}

/** The running daemon, or null with a line on stderr saying to start it to see `what`. */
export async function runningDaemon(a: Args, what: string): Promise<Endpoint | null> {
  const cfg = configFor(a, { vaultRequired: false });
  const d = await findDaemon(cfg);
  if (!d) process.stderr.write(`memvault: no daemon serves ${cfg.vault}; start it (memvault start) to see ${what}\n`);
  return d;
}

export async function runCommand(a: Args): Promise<number> {
  const job = a.rest[0];
  if (!job || a.rest.length > 1) throw new UsageError('run needs one JOB, e.g. `memvault run daily_reflection --date 2026-11-19`');
  if (a.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(a.date)) throw new UsageError('--date must be YYYY-MM-DD');
  const r = await callOnce<JobRunResult>(
    a,
    'POST',
    `/v1/jobs/${encodeURIComponent(job)}/run`,
    {
      ...(a.date ? { date: a.date } : {}),
      ...(a.event ? { event: a.event } : {}),
    },
    30 * 60_000,
  );
  if (r === null) return EXIT.failure;
  if (a.json) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  else {
    const lines = [
      `${r.job}: ${r.outcome}${r.path ? ` ${r.path}` : ''}${r.commit ? ` (commit ${r.commit.slice(0, 12)})` : ''}${r.reason ? ` — ${r.reason}` : ''}`,
    ];
    if (r.results.length > 1)
      for (const n of r.results) lines.push(`  ${n.outcome.padEnd(18)} ${n.path ?? ''}${n.reason ? ` — ${n.reason}` : ''}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
  return r.outcome === 'failed' ? EXIT.failure : EXIT.ok;
}

export async function jobsCommand(a: Args): Promise<number> {
  const d = await runningDaemon(a, 'its jobs');
  if (!d) return EXIT.failure;
  const l = await callDaemon<JobsList>(d, 'GET', '/v1/jobs');
  if (a.json) {
    process.stdout.write(JSON.stringify(l, null, 2) + '\n');
    return EXIT.ok;
  }
  const out = [`llm: ${l.llm.state}${l.llm.reason ? ` — ${l.llm.reason}` : ''}`];
  for (const j of l.jobs) {
    const last = j.last_run ? `${j.last_run.outcome} at ${j.last_run.at}${j.last_run.path ? ` ${j.last_run.path}` : ''}` : 'never run';
    out.push(
      `${j.name.padEnd(17)} ${j.state.padEnd(9)} ${j.schedule.padEnd(14)} next ${j.next_run ?? '—'}  last ${last}${j.reason ? `\n${' '.repeat(18)}${j.reason}` : ''}`,
    );
  }
  process.stdout.write(out.join('\n') + '\n');
  return EXIT.ok;
}
