// The dream's metrics, registered on the scheduler thread's registry (merged into /metrics by main): runs by
// outcome, tool calls by tool and outcome (refusals included), pages changed, facts covered and not, and the
// watermark's age in days.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface DreamMetrics {
  runs: Counter<'outcome'>;
  toolCalls: Counter<'tool' | 'outcome'>;
  pages: Counter;
  facts: Counter<'coverage'>;
  watermarkAge: Gauge;
}

export function dreamMetrics(registry: Registry, watermarkAgeDays: () => number | null): DreamMetrics {
  const registers = [registry];
  return {
    runs: new Counter({
      name: 'memvault_dream_runs_total',
      help: 'Dream runs by outcome (consolidated, no_progress, failed, skipped)',
      labelNames: ['outcome'],
      registers,
    }),
    toolCalls: new Counter({
      name: 'memvault_dream_tool_calls_total',
      help: 'The dream model’s tool calls by tool and outcome (ok or the refusal reason)',
      labelNames: ['tool', 'outcome'],
      registers,
    }),
    pages: new Counter({ name: 'memvault_dream_pages_changed_total', help: 'Wiki pages the dream changed', registers }),
    facts: new Counter({
      name: 'memvault_dream_facts_total',
      help: 'Facts of consolidated batches, covered by a page or not (those stay searchable log facts)',
      labelNames: ['coverage'],
      registers,
    }),
    watermarkAge: new Gauge({
      name: 'memvault_dream_watermark_age_seconds',
      help: 'Time between the consolidation watermark and today, in whole days as seconds (−1: no watermark yet)',
      registers,
      collect() {
        const days = watermarkAgeDays();
        this.set(days === null ? -1 : days * 86_400);
      },
    }),
  };
}
