// What the status page shows, gathered per view: the index state, each actor (from the merged metrics: mailbox depth,
// restarts, and whether its thread answered), the last commits with their undo state, files not indexed, the jobs.
import { execFile } from 'node:child_process';
import { LOG_FORMAT, parseLog, UNDOABLE_OPS } from '../../git-writer/git-message.js';
import type { FileStatus } from '../../../messages/store.js';
import type { JobsList } from '../../../messages/to-scheduler.js';
import type { IndexState } from '../index-view.js';
import type { LlmStatus } from '../llm-status.js';

export interface ActorRow {
  id: string;
  /** `running` when its thread answered the metrics request of this view, else `not answering`. */
  state: 'running' | 'not answering';
  restarts: number;
  mailbox: number;
}

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
  actors: ActorRow[];
  commits: CommitRow[] | { error: string };
  files: FileStatus[];
  jobs: JobsList | null;
}

/** Actor rows from Prometheus text: the mailbox gauge names every actor main runs. */
export function actorsFromMetrics(text: string): ActorRow[] {
  const rows = new Map<string, ActorRow>();
  for (const m of text.matchAll(/^memvault_mailbox_depth\{actor="([^"]+)"\} (\S+)$/gm))
    rows.set(m[1]!, { id: m[1]!, state: 'not answering', restarts: 0, mailbox: Number(m[2]) });
  for (const m of text.matchAll(/^memvault_actor_restarts_total\{([^}]*)\} (\S+)$/gm)) {
    const id = /actor="([^"]+)"/.exec(m[1]!)?.[1];
    const row = id ? rows.get(id) : undefined;
    if (row) row.restarts += Number(m[2]);
  }
  // a thread's own heap gauge is there only if its worker answered this scrape
  for (const m of text.matchAll(/^nodejs_heap_size_used_bytes\{thread="([^"]+)"\} /gm)) {
    const row = rows.get(m[1]!);
    if (row) row.state = 'running';
  }
  return [...rows.values()];
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
