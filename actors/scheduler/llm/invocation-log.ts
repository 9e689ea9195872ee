// The invocation log: one JSON line per LLM call in `<data dir>/invocations/YYYY-MM-DD.jsonl` (UTC day), so what the
// model cost can be summed afterwards (`memvault llm-usage`) without the daemon, and a day's file is easy to prune.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Invocation } from './types.js';

export function invocationDir(dataDir: string): string {
  return path.join(dataDir, 'invocations');
}

export class InvocationLog {
  readonly #dir: string;

  constructor(dataDir: string) {
    this.#dir = invocationDir(dataDir);
  }

  /** Appends one line; a full or read-only data disk returns the error text instead of failing the call it records. */
  append(inv: Invocation): string | null {
    try {
      mkdirSync(this.#dir, { recursive: true });
      appendFileSync(path.join(this.#dir, `${inv.at.slice(0, 10)}.jsonl`), `${JSON.stringify(inv)}\n`);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }
}

/** Every logged call at or after `sinceMs`, oldest first; lines a crash cut short are skipped. */
export function readInvocations(dataDir: string, sinceMs: number): Invocation[] {
  const dir = invocationDir(dataDir);
  if (!existsSync(dir)) return [];
  const firstDay = new Date(sinceMs).toISOString().slice(0, 10);
  const out: Invocation[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(f);
    if (!m || m[1]! < firstDay) continue;
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const inv = JSON.parse(line) as Invocation;
        if (Date.parse(inv.at) >= sinceMs) out.push(inv);
      } catch {
        // a line a crash cut short
      }
    }
  }
  return out;
}

export interface UsageRow {
  task_type: string;
  model: string;
  calls: number;
  failed: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  latency_p50_ms: number;
}

/** Sums calls per task type and model, biggest spender first, with a total row last. */
export function summariseUsage(invs: readonly Invocation[]): { rows: UsageRow[]; total: UsageRow } {
  const groups = new Map<string, Invocation[]>();
  for (const i of invs) {
    const key = `${i.task_type}\u0000${i.model}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const row = (task: string, model: string, g: readonly Invocation[]): UsageRow => {
    const lat = g.map((i) => i.latency_ms).sort((a, b) => a - b);
    return {
      task_type: task,
      model,
      calls: g.length,
      failed: g.filter((i) => i.outcome !== 'ok').length,
      tokens_in: g.reduce((s, i) => s + i.tokens_in, 0),
      tokens_out: g.reduce((s, i) => s + i.tokens_out, 0),
      cost_usd: Math.round(g.reduce((s, i) => s + i.cost_usd, 0) * 1e6) / 1e6,
      latency_p50_ms: lat.length ? lat[Math.floor((lat.length - 1) / 2)]! : 0,
    };
  };
  const rows = [...groups.values()]
    .map((g) => row(g[0]!.task_type, g[0]!.model, g))
    .sort(
      (a, b) =>
        b.cost_usd - a.cost_usd || b.tokens_in + b.tokens_out - (a.tokens_in + a.tokens_out) || a.task_type.localeCompare(b.task_type),
    );
  return { rows, total: row('(all)', '(all)', invs) };
}
