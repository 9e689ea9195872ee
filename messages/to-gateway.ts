// Messages the gateway receives from main: replies to what it asked main for (merged metrics, a reindex).
import type { MutationResult } from './vault-ops.js';

export type GatewayMsg =
  | { type: 'gateway.mutation_result'; requestId: number; result: MutationResult }
  /** A note reached the index (copied from the store writer's `watcher.done`): read-your-writes waits on it. */
  | { type: 'gateway.indexed'; path: string; contentHash: string | null }
  | { type: 'gateway.metrics'; requestId: number; text: string; contentType: string }
  | { type: 'gateway.reindexed'; requestId: number; ok: boolean; documents: number; ms: number; error: string | null };
