// Parses `git status --porcelain=v1 -z`: NUL-separated, so spaces, quotes, newlines and unicode in names arrive intact.

export interface StatusEntry {
  /** Index status (X) and work-tree status (Y), e.g. 'M', ' ', '?', 'A', 'D', 'R', 'U'. */
  index: string;
  worktree: string;
  path: string;
  /** For a rename or copy: where it came from. */
  from?: string;
}

export function parseStatusZ(stdout: string): StatusEntry[] {
  const f = stdout.split('\0');
  const out: StatusEntry[] = [];
  for (let i = 0; i < f.length; i++) {
    const rec = f[i]!;
    if (rec.length < 4) continue; // the trailing empty field
    const index = rec[0]!;
    const worktree = rec[1]!;
    const e: StatusEntry = { index, worktree, path: rec.slice(3) };
    // A rename/copy record is followed by a field holding the source path.
    if (index === 'R' || index === 'C' || worktree === 'R' || worktree === 'C') e.from = f[++i];
    out.push(e);
  }
  return out;
}

/** An unmerged entry (a person's merge or rebase in progress): never ours to stage. */
export function isUnmerged(e: StatusEntry): boolean {
  const xy = e.index + e.worktree;
  return e.index === 'U' || e.worktree === 'U' || xy === 'AA' || xy === 'DD';
}
