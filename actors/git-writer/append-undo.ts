// Undoing one append to an append-only file (the fact log's tombstones) once other changes touched the file: `git
// revert` sees the later lines next to the ones it takes out and stops with a conflict, so agent A could not undo its
// own forget once agent B had forgotten something after it. The append is taken out by text instead: only when the
// commit did nothing but append whole lines, and those lines still stand together, once, in the file.

/**
 * `current` without the lines one commit appended (`after` is `before` plus those lines), or null when the commit
 * did more than append whole lines, or its lines are not in `current` exactly once (edited since, or ambiguous:
 * that stays a conflict for a person to look at).
 */
export function withoutAppended(before: string, after: string, current: string): string | null {
  if (after.length <= before.length || !after.startsWith(before)) return null;
  if ((before !== '' && !before.endsWith('\n')) || !after.endsWith('\n')) return null; // the lines would not be whole
  const added = after.slice(before.length);
  const at: number[] = [];
  for (let i = current.indexOf(added); i >= 0; i = current.indexOf(added, i + 1)) if (i === 0 || current[i - 1] === '\n') at.push(i);
  if (at.length !== 1) return null;
  return current.slice(0, at[0]) + current.slice(at[0]! + added.length);
}
