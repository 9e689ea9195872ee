// A `.git/index.lock` left in the vault: git leaves it when killed mid-command, and while it is there every commit
// is refused. The refused write's message names it; `memvault doctor`, `memvault status`, /v1/status (`git.problem`)
// and the status page say so too, with its age. A plain stat, so any thread or the command line can ask.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Younger than this, a lock is most likely a git at work (memvault's own commits hold it for milliseconds). */
export const LOCK_QUIET_MS = 2_000;

export interface GitProblem {
  reason: 'git_index_locked';
  /** The lock file's absolute path. */
  path: string;
  /** How long it has been there (from its mtime). */
  age_ms: number;
  message: string;
}

/** `git` in /v1/status and `memvault status --json`. */
export interface GitStatus {
  problem: GitProblem | null;
}

/** The repository folder of the vault: `.git`, or where a `.git` file (`gitdir: …`, a worktree's) points. */
function gitDirOf(vault: string): string {
  const dotGit = path.join(vault, '.git');
  try {
    if (statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m?.[1]) return path.resolve(vault, m[1]);
    }
  } catch {
    // no .git at all: there is no lock either
  }
  return dotGit;
}

/** How long, said for a person: `40 s`, `12 min`, `3 h`, `2 d`. */
export function sayAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7_200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3_600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

/** The vault's `.git/index.lock` when it has been there LOCK_QUIET_MS or longer, else null. */
export function gitIndexLock(vault: string, now: number = Date.now()): GitProblem | null {
  const file = path.join(gitDirOf(vault), 'index.lock');
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  const age = Math.max(0, now - st.mtimeMs);
  if (age < LOCK_QUIET_MS) return null;
  return {
    reason: 'git_index_locked',
    path: file,
    age_ms: Math.round(age),
    message: `${file} has been there ${sayAge(age)}: git leaves it when killed mid-command, and while it is there memvault's writes are refused (each is kept on disk and committed once git works again); if no git process runs (\`pgrep -a git\`), remove it (\`rm ${file}\`)`,
  };
}

export function gitStatus(vault: string, now: number = Date.now()): GitStatus {
  return { problem: gitIndexLock(vault, now) };
}
