// `memvault llm-usage`: sums the invocation log (calls, failures, tokens, cost, median latency) by task type and
// model over a period; reads the data dir's files directly, so it works with or without a daemon.
import { invocationDir, readInvocations, summariseUsage, type UsageRow } from '../../actors/scheduler/llm/invocation-log.js';
import { configFor, EXIT, UsageError, type Args } from '../args.js';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `7d`, `24h`, `90m`, `2w`, or an ISO date/time → epoch ms. */
export function parseSince(s: string, now: number): number {
  const m = /^(\d+)([mhdw])$/.exec(s.trim());
  if (m) return now - Number(m[1]) * UNIT_MS[m[2]!]!;
  const at = Date.parse(s);
  if (Number.isFinite(at)) return at;
  throw new UsageError(`--since must be like 7d, 24h, 90m, 2w or a date (YYYY-MM-DD), got "${s}"`);
}

export async function llmUsageCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const since = parseSince(a.since ?? '7d', Date.now());
  const { rows, total } = summariseUsage(readInvocations(cfg.data_dir, since));
  const sinceIso = new Date(since).toISOString();
  if (a.json) {
    process.stdout.write(JSON.stringify({ since: sinceIso, rows, total }, null, 2) + '\n');
    return EXIT.ok;
  }
  if (total.calls === 0) {
    process.stdout.write(`no LLM calls since ${sinceIso} (log: ${invocationDir(cfg.data_dir)})\n`);
    return EXIT.ok;
  }
  const head = ['task type', 'model', 'calls', 'failed', 'tokens in', 'tokens out', 'cost USD', 'p50 ms'];
  const cells = (r: UsageRow) => [
    r.task_type,
    r.model,
    String(r.calls),
    String(r.failed),
    String(r.tokens_in),
    String(r.tokens_out),
    r.cost_usd.toFixed(4),
    String(r.latency_p50_ms),
  ];
  const table = [head, ...rows.map(cells), cells(total)];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`LLM calls since ${sinceIso}\n${table.map(line).join('\n')}\n`);
  return EXIT.ok;
}
