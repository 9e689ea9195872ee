// What the status page shows, gathered per view: the index state, the supervision tree (each supervisor's strategy,
// each actor's state, restarts and mailbox depth), the last commits with their undo state, files not indexed, the
// scheduler's jobs and the dream's watermark.
import { execFile } from 'node:child_process';
import { LOG_FORMAT, parseLog, UNDOABLE_OPS } from '../../git-writer/git-message.js';
import type { FileStatus } from '../../../messages/store.js';
import type { JobsList } from '../../../messages/to-scheduler.js';
import type { IndexState } from '../index-view.js';
import type { LlmStatus } from '../llm-status.js';
import type { GitStatus } from '../../git-writer/index-lock.js';
import type { DreamStatus, DreamUnavailable } from '../../../messages/dream.js';
import type { SupervisionStatus } from '../supervision-status.js';

export interface CommitRow {
  sha: string;
  at: string;
  kind: 'agent' | 'person' | 'undo' | 'skill';
  who: string;
  subject: string;
  paths: string[];
  /** undoable: vault_undo_last can revert it; undone: a later commit reverted it; fixed: not an undoable change. */
  undo: 'undoable' | 'undone' | 'fixed';
}

export interface StatusData {
  vault: string;
  version: string;
  index: IndexState;
  llm: LlmStatus | null;
  /** A stale `.git/index.lock` in the vault, shown while it is there. */
  git: GitStatus | null;
  /** The running supervision tree (main's answer), or why there is none. */
  supervision: SupervisionStatus;
  commits: CommitRow[] | { error: string };
  files: FileStatus[];
  jobs: JobsList | null;
  /** The dream's state as GET /v1/dream gives it; null where the scheduler does not run (writes off). */
  dream: DreamStatus | DreamUnavailable | null;
}

/** The last `n` commits of the vault, newest first. A read-only `git log` (a person looking at the page, not a hot path). */
export function recentCommits(vault: string, n: number): Promise<CommitRow[] | { error: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', vault, '-c', 'log.showSignature=false', 'log', '-z', `-n${n}`, `--format=${LOG_FORMAT}`, 'HEAD'],
      { timeout: 5_000, maxBuffer: 8 << 20, encoding: 'utf8' },
      (err, stdout) => {
        if (err) return resolve({ error: `git log failed: ${err.message.split('\n')[0]}` });
        const entries = parseLog(stdout);
        const reverted = new Set(entries.map((e) => e.reverts).filter((s): s is string => s !== undefined));
        resolve(
          entries.map((e) => {
            const kind = e.op === 'undo' ? 'undo' : e.skill ? 'skill' : e.agent ? 'agent' : 'person';
            return {
              sha: e.sha,
              at: new Date(e.time * 1000).toISOString(),
              kind,
              who: e.skill ?? e.agent ?? e.author.name,
              subject: e.subject,
              paths: e.paths,
              undo: e.op && UNDOABLE_OPS.includes(e.op) ? (reverted.has(e.sha) ? 'undone' : 'undoable') : 'fixed',
            };
          }),
        );
      },
    );
  });
}
