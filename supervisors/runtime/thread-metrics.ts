// prom-client's default metrics split by what they describe: the process (RSS, CPU, file descriptors: one set, from
// main) and each thread (event-loop lag, V8 heap, GC: every worker has its own isolate and loop, labelled `thread`).
// Workers share the process, so their process_* figures would repeat main's and are left out.
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { WorkerMetrics } from '../../messages/actor.js';

// nodejs_active_*_total are gauges named like counters (promtool refuses them); the unsuffixed ones say the same
const PER_THREAD = /^nodejs_(eventloop_lag|heap_|gc_duration|external_memory|active_(handles|requests|resources)$)/;

function collected(filter: (name: string) => boolean): () => Promise<WorkerMetrics> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return async () =>
    (await registry.getMetricsAsJSON())
      .filter((m) => filter(m.name))
      // one thread's or the process's own figure: never summed or averaged with another registry's (and kept, where
      // prom-client's cluster mode would omit process_start_time_seconds)
      .map((m) => ({ ...m, aggregator: 'first' as const }));
}

/** This thread's loop, heap and GC metrics, unlabelled (main labels them with the actor's id when it merges). */
export const threadDefaultMetrics = (): (() => Promise<WorkerMetrics>) => collected((n) => PER_THREAD.test(n));

/** The process's metrics (process_*, nodejs_version_info): collected in main only. */
export const processDefaultMetrics = (): (() => Promise<WorkerMetrics>) =>
  collected((n) => n.startsWith('process_') || n === 'nodejs_version_info');

/** Labels a thread's default metrics with its name (`main` or the actor id); other metrics pass unchanged. */
export function labelThread(metrics: WorkerMetrics, thread: string): WorkerMetrics {
  return metrics.map((m) =>
    PER_THREAD.test(m.name) ? { ...m, values: m.values.map((v) => ({ ...v, labels: { ...v.labels, thread } })) } : m,
  );
}
