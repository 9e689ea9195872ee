// The dream from the command line: `memvault consolidate [--force]` (a run now, through the running daemon or one
// started for it), `memvault dream status`, and `memvault undo --run RUN_ID` (every commit of one run reverted).
import type { DreamStatus, TickResult, UndoRunResult } from '../../messages/dream.js';
import { EXIT, type Args, UsageError } from '../args.js';
import { callDaemon } from '../client.js';
import { callOnce, runningDaemon } from './run.js';

function print(a: Args, value: unknown, text: string): void {
  process.stdout.write(a.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

export function describeTick(r: TickResult): string {
  switch (r.outcome) {
    case 'busy':
      return `busy: dream run ${r.run} is under way`;
    case 'idle':
      return `idle: ${r.reason}${r.next_eligible ? ` (next eligible ${r.next_eligible})` : ''}`;
    case 'skipped':
      return `skipped ${r.batch} after ${r.failures} failures; watermark ${r.watermark}`;
    default:
      return [
        `${r.id}: ${r.outcome} ${r.batch}${r.watermark ? `, watermark ${r.watermark}` : ''}`,
        `  pages ${r.pages.length}${r.pages.length ? ` (${r.pages.join(', ')})` : ''}, facts covered ${r.covered.length}, not covered ${r.uncovered.length}`,
        `  tool calls ${r.tool_calls}${r.refused.length ? `, refused ${r.refused.map((x) => `${x.tool}:${x.reason}`).join(' ')}` : ''}, tokens ${r.tokens}`,
        ...(r.reason ? [`  ${r.reason}`] : []),
        // a run that called no tool and moved no watermark committed nothing: there is nothing to undo
        ...(r.tool_calls > 0 || r.watermark ? [`  undo with: memvault undo --run ${r.id}`] : []),
      ].join('\n');
  }
}

export async function consolidateCommand(a: Args): Promise<number> {
  if (a.rest.length) throw new UsageError('consolidate takes no arguments: `memvault consolidate [--force]`');
  const r = await callOnce<TickResult>(a, 'POST', '/v1/consolidate', { force: a.force }, 60 * 60_000);
  if (r === null) return EXIT.failure;
  print(a, r, describeTick(r));
  return r.outcome === 'failed' || r.outcome === 'no_progress' ? EXIT.failure : EXIT.ok;
}

export async function dreamStatusCommand(a: Args): Promise<number> {
  if (a.rest[0] !== 'status' || a.rest.length > 1) throw new UsageError('`memvault dream status` shows the dream’s state');
  const d = await runningDaemon(a, 'the dream');
  if (!d) return EXIT.failure;
  const s = await callDaemon<DreamStatus>(d, 'GET', '/v1/dream');
  const last = s.last_run;
  print(
    a,
    s,
    [
      `running: ${s.running ? `yes (${s.run_id})` : 'no'}`,
      `watermark: ${s.watermark ?? 'none yet'}`,
      `pending days: ${s.pending_days.length}${s.pending_days.length ? ` (${s.pending_days[0]} … ${s.pending_days.at(-1)})` : ''}`,
      `next eligible: ${s.next_eligible ?? '—'}${s.next_reason ? ` (${s.next_reason})` : ''}`,
      `last run: ${last ? `${last.id} ${last.outcome} ${last.batch}: pages ${last.pages}, covered ${last.covered}, not covered ${last.uncovered}, tokens ${last.tokens}, cost $${last.cost.toFixed(4)}` : 'never'}`,
      ...(last?.reason ? [`  ${last.reason}`] : []),
      ...Object.entries(s.failures).map(([k, n]) => `failures: ${k} × ${n}`),
    ].join('\n'),
  );
  return EXIT.ok;
}

export async function undoCommand(a: Args): Promise<number> {
  if (!a.run) throw new UsageError('undo needs the run: `memvault undo --run RUN_ID` (the id `memvault dream status` shows)');
  const u = await callOnce<UndoRunResult>(a, 'POST', '/v1/dream/undo', { run: a.run }, 10 * 60_000);
  if (u === null || !u.ok) return EXIT.failure;
  print(a, u, `undid dream run ${u.run}: ${u.commits.length} commits reverted (${u.paths.join(', ')})`);
  return EXIT.ok;
}
