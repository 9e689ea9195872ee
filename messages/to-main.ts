// Messages main (the supervisor thread) receives from actors: requests only main can answer, and progress signals.
export type MainMsg =
  /** Request: every thread's metrics, merged (answered with MetricsText). */
  | { type: 'main.metrics' }
  /** Request: rebuild the index into a new file and swap it in (answered with ReindexResult). */
  | { type: 'main.reindex' }
  /** Request: the running supervision tree with each actor's state, restarts and mailbox (messages/supervision.ts). */
  | { type: 'main.supervision' }
  /** The watcher's pending count changed to or from zero, or its reconcile finished. */
  | { type: 'main.watcher_state'; pending: number; reconciled: boolean }
  /** The git writer recorded a commit (agent, undo or a person's edit): for observers (tests, chaos runs). */
  | { type: 'main.committed'; kind: 'agent' | 'undo' | 'human'; sha: string; paths: string[] }
  /** The memory actor's episodes and facts not yet in the index, and whether its journal replay is still running. */
  | { type: 'main.memory_state'; pending: number; replaying: boolean };

export interface MetricsText {
  text: string;
  contentType: string;
}

export interface ReindexResult {
  ok: boolean;
  documents: number;
  ms: number;
  error: string | null;
}
