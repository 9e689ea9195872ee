// One search answered to a caller, over HTTP or through a tool: the same search, timed into the search histogram
// and logged once as `memory_retrieval`.
import type { EventLogger } from '../../supervisors/runtime/log.js';
import type { SearchBody } from './api-schema.js';
import type { IndexView, SearchResponse } from './index-view.js';
import type { GatewayMetrics } from './metrics.js';

export type Retrieve = (body: SearchBody) => Promise<SearchResponse>;

export function retriever(view: IndexView, log: EventLogger, metrics: Pick<GatewayMetrics, 'searchSeconds'>): Retrieve {
  return async (body) => {
    const r = await view.search(body);
    metrics.searchSeconds.observe({ mode: r.mode }, r.took_ms / 1000);
    log.event('memory_retrieval', { mode: r.mode, k: body.k, results: r.results.length, took_ms: r.took_ms, degraded: r.degraded });
    return r;
  };
}
