// Messages the gateway receives from main: replies to what it asked main for (merged metrics, a reindex).
export type GatewayMsg =
  | { type: 'gateway.metrics'; requestId: number; text: string; contentType: string }
  | { type: 'gateway.reindexed'; requestId: number; ok: boolean; documents: number; ms: number; error: string | null };
