// The tool gateway's Prometheus metrics: requests by transport and status, calls by tool and outcome (prom-client,
// label names typed). Registered once per thread and reused, so building a second gateway never throws.
import { Counter, Histogram, register, type Registry } from 'prom-client';

function once<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function toolMetrics(registry: Registry = register) {
  return {
    requests: once(
      registry,
      'memvault_tool_requests_total',
      () =>
        new Counter<'transport' | 'status'>({
          name: 'memvault_tool_requests_total',
          help: 'Tool gateway requests (MCP over HTTP, MCP proxied from stdio, plain HTTP JSON) by transport and HTTP status',
          labelNames: ['transport', 'status'],
          registers: [registry],
        }),
    ),
    calls: once(
      registry,
      'memvault_tool_calls_total',
      () =>
        new Counter<'tool' | 'transport' | 'outcome'>({
          name: 'memvault_tool_calls_total',
          help: 'Tool calls by tool, transport and outcome (`ok` or the failure reason code)',
          labelNames: ['tool', 'transport', 'outcome'],
          registers: [registry],
        }),
    ),
    callSeconds: once(
      registry,
      'memvault_tool_call_duration_seconds',
      () =>
        new Histogram<'tool'>({
          name: 'memvault_tool_call_duration_seconds',
          help: 'Tool call latency, including waits for the git writer and for the index (wait_indexed)',
          labelNames: ['tool'],
          buckets: [0.002, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
          registers: [registry],
        }),
    ),
    // the memory actor counts episodes it forgets; facts are forgotten here (merged with its counter by name at /metrics)
    tombstones: once(
      registry,
      'memvault_tombstones_total',
      () =>
        new Counter<'source_type'>({
          name: 'memvault_tombstones_total',
          help: 'Episodes and facts forgotten, by source type',
          labelNames: ['source_type'],
          registers: [registry],
        }),
    ),
  };
}
export type ToolMetrics = ReturnType<typeof toolMetrics>;
