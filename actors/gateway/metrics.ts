// The gateway's Prometheus metrics (prom-client, label names typed so a typo fails to compile).
import { Counter, Gauge, Histogram } from 'prom-client';

export function gatewayMetrics() {
  return {
    requests: new Counter<'transport' | 'route' | 'status'>({
      name: 'memvault_gateway_requests_total',
      help: 'Gateway requests by transport, route and HTTP status',
      labelNames: ['transport', 'route', 'status'],
    }),
    episodesRejected: new Counter<'source_type' | 'reason'>({
      name: 'memvault_episodes_rejected_total',
      help: 'Episodes refused at POST /v1/episodes, by source type (unknown when the type was bad) and reason',
      labelNames: ['source_type', 'reason'],
    }),
    recallBytes: new Gauge({ name: 'memvault_recall_log_bytes', help: 'Size of the recall log (<data dir>/recall/*.jsonl)' }),
    authFailures: new Counter({ name: 'memvault_gateway_auth_failures_total', help: 'Requests refused for a missing or wrong token' }),
    searchSeconds: new Histogram<'mode'>({
      name: 'memvault_search_duration_seconds',
      help: 'Search latency including the query embedding, by the mode that ran',
      labelNames: ['mode'],
      buckets: [0.002, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    }),
  };
}
export type GatewayMetrics = ReturnType<typeof gatewayMetrics>;
