// Messages the gateway receives: notices that a note reached the index (read-your-writes waits on them).
export type GatewayMsg =
  /** Sent by the store writer beside `watcher.done` (not for failures): the index now holds this content (or none). */
  | { type: 'gateway.indexed'; path: string; contentHash: string | null }
  /** Request (main, after a reindex's swap): read the swapped-in index file from now on; answered `{ reopened: true }`. */
  | { type: 'gateway.index_swapped' };
