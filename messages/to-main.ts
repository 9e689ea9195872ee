// Messages main (the supervisor thread) receives from actors: requests only main can answer, and progress signals.
export type MainMsg =
  | { type: 'main.metrics_request'; requestId: number }
  /** The watcher's pending count changed to or from zero, or its reconcile finished. */
  | { type: 'main.watcher_state'; pending: number; reconciled: boolean }
  | { type: 'main.reindex_request'; requestId: number }
  | { type: 'main.index_swapped'; requestId: number }
  /** The git writer recorded a commit (agent, undo or a person's edit): for observers (tests, chaos runs). */
  | { type: 'main.committed'; kind: 'agent' | 'undo' | 'human'; sha: string; paths: string[] };
