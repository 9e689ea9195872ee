// Whether a process id names a live process (a daemon's, a model download's): signal 0 checks without signalling.

/** True while `pid` runs; EPERM means it runs as another user. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
