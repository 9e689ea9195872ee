// The memory actor's Prometheus metrics (merged with every thread's at /metrics; the gateway counts facts forgotten
// under the same tombstones name).
import { Counter, Gauge } from 'prom-client';

/** `ownersHeld`: how many episode ids the ownership ledger holds now (read when /metrics is asked). */
export function memoryMetrics(ownersHeld: () => number) {
  return {
    ownersHeld: new Gauge({
      name: 'memvault_episode_owners_held',
      help: 'Episode ids the memory actor holds to tell who recorded them (accepted, and not answered for by the index yet)',
      collect() {
        this.set(ownersHeld());
      },
    }),
    ingested: new Counter<'source_type'>({
      name: 'memvault_episodes_ingested_total',
      help: 'Episodes journaled (durable), by source type',
      labelNames: ['source_type'],
    }),
    failed: new Counter<'source_type' | 'reason'>({
      name: 'memvault_episodes_failed_total',
      help: 'Episode or fact documents stored without vectors or not at all, by source type and reason',
      labelNames: ['source_type', 'reason'],
    }),
    embedded: new Counter<'source_type'>({
      name: 'memvault_episode_embeddings_total',
      help: 'Episode and fact texts sent to the model (the rest reuse a stored vector of the same text), by source type',
      labelNames: ['source_type'],
    }),
    tombstones: new Counter<'source_type'>({
      name: 'memvault_tombstones_total',
      help: 'Episodes and facts forgotten, by source type',
      labelNames: ['source_type'],
    }),
    pruned: new Counter<'source_type'>({
      name: 'memvault_pruned_rows_total',
      help: 'Episode documents removed by retention, by source type',
      labelNames: ['source_type'],
    }),
  };
}
