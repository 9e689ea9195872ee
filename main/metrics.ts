// Main's own metrics (restarts, mailbox depths, pending files, index lag) and the merge of every thread's registry
// into the one text Prometheus scrapes.
import { AggregatorRegistry, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { MetricsText } from '../messages/index.js';
import type { Board } from '../supervisors/runtime/board.js';
import type { ActorHandle } from '../supervisors/runtime/host.js';
import { monotonicMs } from '../supervisors/clock.js';
import { labelThread, processDefaultMetrics, threadDefaultMetrics } from '../supervisors/runtime/thread-metrics.js';

type Handles = Partial<Record<string, ActorHandle<unknown>>>;

/** How long one thread may take to report before the scrape goes on without it. */
const WORKER_METRICS_MS = 2_000;

export class MainMetrics {
  readonly registry = new Registry();
  readonly restarts: Counter<'actor' | 'reason'>;
  readonly #process = processDefaultMetrics();
  readonly #thread = threadDefaultMetrics();

  constructor(board: Board, handles: Handles) {
    this.restarts = new Counter({
      name: 'memvault_actor_restarts_total',
      help: 'Actor restarts by actor and the reason it exited',
      labelNames: ['actor', 'reason'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'memvault_mailbox_depth',
      help: 'Messages queued or in flight per actor',
      labelNames: ['actor'],
      registers: [this.registry],
      collect() {
        for (const [id, h] of Object.entries(handles)) if (h) this.set({ actor: id }, h.depth());
      },
    });
    new Gauge({
      name: 'memvault_pending_files',
      help: 'Files that differ from the index and are not yet done',
      registers: [this.registry],
      collect() {
        this.set(board.get('pending'));
      },
    });
    new Gauge({
      name: 'memvault_index_lag_seconds',
      help: 'Age of the oldest pending file (0 when caught up)',
      registers: [this.registry],
      collect() {
        const t = board.get('oldestPendingAt');
        this.set(t > 0 ? Math.max(0, (monotonicMs() - t) / 1000) : 0); // the watcher stamps it with monotonicMs
      },
    });
  }

  /** Prometheus text of every thread's registry, merged (counters summed, gauges summed per label set). */
  async text(handles: Handles): Promise<MetricsText> {
    const all: MetricObjectWithValues<MetricValue<string>>[][] = [
      await this.registry.getMetricsAsJSON(),
      await this.#process(),
      labelThread(await this.#thread(), 'main'),
    ];
    const ids = Object.keys(handles).filter((id) => handles[id]);
    const results = await Promise.allSettled(ids.map((id) => handles[id]!.metrics(WORKER_METRICS_MS)));
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') all.push(labelThread(r.value, ids[i]!));
    });
    const merged = AggregatorRegistry.aggregate(all);
    return { text: await merged.metrics(), contentType: merged.contentType };
  }
}
