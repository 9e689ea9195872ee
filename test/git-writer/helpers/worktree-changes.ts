// What the git writer's tests await and count of work-tree changes: the routed `git.worktree_changed` naming a path,
// and the metric that says whose each change was taken for (own, or a person's).
import type { AnyMsg } from '../../../messages/index.js';

/** Resolves when main routes a `git.worktree_changed` naming `path` to the git writer. */
export function worktreeChange(d: { daemon: { onRouted(l: (m: AnyMsg) => void): () => void } }, path: string): Promise<void> {
  return new Promise((resolve) => {
    const off = d.daemon.onRouted((m) => {
      if (m.type === 'git.worktree_changed' && m.paths.includes(path)) {
        off();
        resolve();
      }
    });
  });
}

/** `memvault_worktree_changes_total{by}` in a metrics text (0 when absent). */
export const counted = (metrics: string, by: string): number =>
  Number(new RegExp(`memvault_worktree_changes_total\\{by="${by}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
