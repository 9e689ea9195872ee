// Another git (a person's, an editor's) may hold a lock in the repository for a moment: try again after 20, 80 and
// 250 ms, then the last attempt's answer stands.
export const LOCK_RETRY_MS = [20, 80, 250] as const;

/**
 * What git prints when another process holds the lock it needs (index.lock, a ref's lock): the command failed
 * before changing anything, so it is safe to run again.
 */
export const LOCK_BUSY = /\.lock': File exists|cannot lock ref|Unable to create '[^']*\.lock'/;

/** `attempt` until `locked` says its answer is not another process's lock, at most LOCK_RETRY_MS.length + 1 times. */
export async function retryWhileLocked<R>(attempt: () => R | Promise<R>, locked: (r: R) => boolean): Promise<R> {
  for (const ms of LOCK_RETRY_MS) {
    const r = await attempt();
    if (!locked(r)) return r;
    await new Promise((res) => setTimeout(res, ms));
  }
  return attempt();
}
