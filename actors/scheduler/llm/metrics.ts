// The LLM client's metrics: calls, tokens and cost by task type and model, and a latency histogram. Registered in
// the calling thread's registry, which main merges into /metrics; made once per registry however many clients exist.
import { Counter, Histogram, register as defaultRegistry, type Registry } from 'prom-client';

export interface LlmMetrics {
  calls: Counter<'task_type' | 'model' | 'outcome'>;
  tokens: Counter<'task_type' | 'model' | 'direction'>;
  cost: Counter<'task_type' | 'model'>;
  latency: Histogram<'task_type' | 'model'>;
}

const made = new WeakMap<Registry, LlmMetrics>();

export function llmMetrics(registry: Registry = defaultRegistry): LlmMetrics {
  const had = made.get(registry);
  if (had) return had;
  const registers = [registry];
  const m: LlmMetrics = {
    calls: new Counter({
      name: 'memvault_llm_calls_total',
      help: 'LLM chat calls by task type, model and outcome (ok or the failure reason)',
      labelNames: ['task_type', 'model', 'outcome'],
      registers,
    }),
    tokens: new Counter({
      name: 'memvault_llm_tokens_total',
      help: 'Tokens the LLM server reported, by task type, model and direction (in: prompt, out: completion)',
      labelNames: ['task_type', 'model', 'direction'],
      registers,
    }),
    cost: new Counter({
      name: 'memvault_llm_cost_usd_total',
      help: 'Cost of LLM calls in USD from llm.prices (0 for models without a price)',
      labelNames: ['task_type', 'model'],
      registers,
    }),
    latency: new Histogram({
      name: 'memvault_llm_call_duration_seconds',
      help: 'LLM call latency including retries, by task type and model',
      labelNames: ['task_type', 'model'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120],
      registers,
    }),
  };
  made.set(registry, m);
  return m;
}
