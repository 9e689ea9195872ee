// A claim on a piece of a data dir: a file made exclusively with this process's pid, held while the work runs. One
// whose process is gone (killed mid-work) is taken over. `memvault start` claims the start (daemon.starting), a
// reindex the file it builds (index.next.owner).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pidAlive } from '../supervisors/runtime/pid-alive.js';

export type Claim = { release(): void } | { heldBy: number } | { stuck: true };

/** Claims `file`; `heldBy` names the live process holding it, `stuck` says another keeps making it faster than us. */
export function claimFile(file: string): Claim {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          if (claimHolder(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = claimHolder(file);
    if (pid !== null && pid !== process.pid && pidAlive(pid)) return { heldBy: pid };
    // its process is gone; an empty file is one being written (retried), or left by a claim killed at that instant
    if (pid !== null || attempt >= 2) rmSync(file, { force: true });
  }
  return { stuck: true };
}

/** The pid written in a claim file, or null (no file, or one being written). */
export function claimHolder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
