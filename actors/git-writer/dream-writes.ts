// The dream's two writes only the git writer makes: its journal line appended to Memory/log.md (a reserved path,
// written privileged like the fact log's appends), and `memvault undo --run RUN_ID`, which reverts every commit of
// one dream run (its pages and its watermark line), newest first, each as its own undo commit — the same `git
// revert` as vault_undo_last, limited to agent `dream`. Only the newest run can be undone this way: a later run's
// commits stand in front (`not_last_run`, undo that one first).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Failure } from '../../messages/common.js';
import { fail } from '../../messages/common.js';
import { type LogEntry, UNDOABLE_OPS } from './git-message.js';
import type { GitRepo } from './git-repo.js';
import type { VaultOp } from '../../messages/vault-ops.js';
import type { MemoryPaths } from '../memory/paths.js';

/** Memory/log.md with `line` appended (a title first when the file is new). */
export async function planJournal(vault: string, paths: MemoryPaths, line: string): Promise<Extract<VaultOp, { op: 'write' }>> {
  let text: string | null = null;
  try {
    text = await readFile(path.join(vault, ...paths.logNote.split('/')), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const base = text === null || text.trim() === '' ? '# Consolidation log\n\n' : text.endsWith('\n') ? text : `${text}\n`;
  return { op: 'write', path: paths.logNote, content: `${base}${line.replace(/[\r\n]+/g, ' ')}\n` };
}

export const DREAM_AGENT = 'dream';
const SCAN = 500;

export type UndoRunResult =
  | { ok: true; run: string; commits: string[]; paths: string[] }
  | Failure<'nothing_to_undo' | 'not_last_run' | 'conflict' | 'git_failed'>;

/** Whether `e` was made by dream run `run` (its reason reads `dream run <id> batch …`). */
export function ofRun(e: LogEntry, run: string): boolean {
  return e.agent === DREAM_AGENT && (e.reason ?? '').split(' ')[2] === run && (e.reason ?? '').startsWith('dream run ');
}

/** The newest dream commit no later commit reverted, or undefined. */
function newestLive(entries: readonly LogEntry[]): LogEntry | undefined {
  const reverted = new Set<string>();
  for (const e of entries) {
    if (e.reverts !== undefined && !reverted.has(e.sha)) reverted.add(e.reverts);
    if (e.op === undefined || !UNDOABLE_OPS.includes(e.op) || e.parents.length !== 1 || e.agent !== DREAM_AGENT) continue;
    if (!reverted.has(e.sha)) return e;
  }
  return undefined;
}

export async function undoRun(repo: GitRepo, run: string, byAgent: string): Promise<UndoRunResult> {
  const commits: string[] = [];
  const paths = new Set<string>();
  for (;;) {
    let entries: LogEntry[];
    try {
      entries = await repo.log(SCAN);
    } catch (err) {
      return fail('git_failed', (err as Error).message);
    }
    const top = newestLive(entries);
    if (!top || !ofRun(top, run)) {
      if (commits.length) return { ok: true, run, commits, paths: [...paths] };
      const later = top && (top.reason ?? '').startsWith('dream run ') ? (top.reason ?? '').split(' ')[2] : undefined;
      const anyOfRun = entries.some((e) => ofRun(e, run));
      if (top && anyOfRun && later)
        return fail('not_last_run', `dream run ${later} was made after ${run}: undo it first (memvault undo --run ${later})`);
      return fail('nothing_to_undo', `no commit of dream run ${run} is left to undo in the last ${entries.length} commits`);
    }
    const r = await repo.undoLast({ agent: DREAM_AGENT, byAgent, reason: `undo dream run ${run}` });
    if (!r.ok) {
      if (r.reason === 'nothing_to_undo') return fail('nothing_to_undo', r.message);
      return fail(r.reason, `${r.message}${commits.length ? ` (${commits.length} commits of the run were undone before this)` : ''}`);
    }
    commits.push(r.sha);
    for (const p of r.paths) paths.add(p);
  }
}
