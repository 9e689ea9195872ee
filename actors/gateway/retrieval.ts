// One search answered to a caller, over HTTP or through a tool: the same search, timed into the search histogram,
// logged once as `memory_retrieval`, and appended to the recall log (who asked, what came back).
import type { EventLogger } from '../../supervisors/runtime/log.js';
import type { SearchBody } from './api-schema.js';
import type { IndexView, SearchResponse } from './index-view.js';
import type { GatewayMetrics } from './metrics.js';
import type { RecallLog } from './recall-log.js';

/** Who asked: recorded in the recall log. */
export interface Asker {
  agent: string;
  transport: string;
}

export type Retrieve = (body: SearchBody, caller?: Asker) => Promise<SearchResponse>;

export function retriever(
  view: IndexView,
  log: EventLogger,
  metrics: Pick<GatewayMetrics, 'searchSeconds'>,
  recall: RecallLog | null = null,
): Retrieve {
  return async (body, caller) => {
    const r = await view.search(body);
    metrics.searchSeconds.observe({ mode: r.mode }, r.took_ms / 1000);
    log.event('memory_retrieval', { mode: r.mode, k: body.k, results: r.results.length, took_ms: r.took_ms, degraded: r.degraded });
    if (recall && caller)
      recall
        .record(r, body.query, caller)
        .catch((err: unknown) => log.warn({ event: 'memory_retrieval', err: String(err) }, 'could not append to the recall log'));
    return r;
  };
}
