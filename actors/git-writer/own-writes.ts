// The git writer's own writes, remembered by the stats they left, so their echo from the OS watcher is not taken
// for a person's edit: without this every agent write came back as `git.worktree_changed` and cost a "nothing to
// commit" git pass after the quiet period.
import { lstatSync } from 'node:fs';
import path from 'node:path';

/** What a path looked like right after our commit: its mtime and size, or null when we removed it. */
type Left = { mtimeMs: number; size: number } | null;

/** Paths remembered at most; the oldest are forgotten first (their echoes then cost one harmless git pass). */
const MAX_REMEMBERED = 10_000;

export class OwnWrites {
  readonly #left = new Map<string, Left>();

  constructor(
    readonly root: string,
    readonly statOf: (abs: string) => Promise<Left> = statOrNull,
  ) {}

  /** Records what our commit left at each (vault-relative) path. */
  async record(paths: readonly string[]): Promise<void> {
    for (const rel of paths) {
      const key = rel.normalize('NFC');
      this.#left.delete(key); // re-inserted last: Map order is the forgetting order
      this.#left.set(key, await this.statOf(path.join(this.root, key)));
    }
    for (const key of this.#left.keys()) {
      if (this.#left.size <= MAX_REMEMBERED) break;
      this.#left.delete(key);
    }
  }

  /** The paths that changed since our last commit of them: a person's edits (NFC paths in, in order). */
  async othersOf(paths: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const p of paths) {
      if (!this.#left.has(p)) {
        out.push(p);
        continue;
      }
      const was = this.#left.get(p)!;
      const now = await this.statOf(path.join(this.root, p));
      if (was === null ? now === null : now !== null && now.mtimeMs === was.mtimeMs && now.size === was.size) continue; // our echo
      this.#left.delete(p); // someone changed it after us: from now on it is theirs
      out.push(p);
    }
    return out;
  }
}

// synchronous: recorded after every commit, and one lstat costs less than a thread-pool hop
async function statOrNull(abs: string): Promise<Left> {
  try {
    const s = lstatSync(abs, { throwIfNoEntry: false });
    return s ? { mtimeMs: s.mtimeMs, size: s.size } : null;
  } catch {
    return null;
  }
}
