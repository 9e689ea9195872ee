// Whether a process id names a live process (a daemon's, a model download's): signal 0 checks without signalling.
import { readFileSync } from 'node:fs';

/**
 * True while `pid` runs; EPERM means it runs as another user. A zombie — killed, not yet reaped by its parent —
 * answers signal 0 too but runs nothing: on Linux its state in /proc says so (a start right after a kill -9 of a
 * reindex kept that reindex's leftover file, as if it still built it).
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/** A process's state letter from /proc (`R`, `S`, `Z`, …), or null without /proc or once it is gone. */
export function processState(pid: number): string | null {
  try {
    // "pid (comm) S ...": comm may hold spaces and parentheses, so the state follows the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return stat.slice(close + 2, close + 3);
  } catch {
    return null;
  }
}

function zombie(pid: number): boolean {
  return processState(pid) === 'Z'; // null: no /proc here, or gone meanwhile (signal 0 answered a moment ago)
}
