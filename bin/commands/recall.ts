// `memvault recall --since 7d --top 20`: the memories searches brought back most often, from the recall log
// (`<data dir>/recall/*.jsonl`) — read directly, with or without a daemon.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RecallEntry } from '../../actors/gateway/recall-log.js';
import { configFor, EXIT, UsageError, type Args } from '../args.js';

/** `7d`, `12h`, `30m` before `now`, or an ISO date; epoch ms. */
export function sinceOf(spec: string, now: number): number {
  const m = /^(\d+(?:\.\d+)?)([dhm])$/.exec(spec.trim());
  if (m) return now - Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  const t = Date.parse(spec);
  if (Number.isFinite(t)) return t;
  throw new UsageError(`--since must be like 7d, 12h, 30m or an ISO date, got "${spec}"`);
}

export interface Recalled {
  id: string;
  count: number;
  last: string;
  /** The most recent query that brought it back. */
  query: string;
}

export function topRecalled(dataDir: string, since: number, top: number): { searches: number; memories: Recalled[] } {
  const dir = path.join(dataDir, 'recall');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(f));
  } catch {
    return { searches: 0, memories: [] };
  }
  const day = new Date(since).toISOString().slice(0, 10);
  const by = new Map<string, Recalled>();
  let searches = 0;
  for (const f of files.filter((x) => x.slice(0, 10) >= day).sort()) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      let e: RecallEntry;
      try {
        e = JSON.parse(line) as RecallEntry;
      } catch {
        continue; // a line cut short by a crash
      }
      if (Date.parse(e.at) < since) continue;
      searches++;
      for (const id of new Set(e.results)) {
        const r = by.get(id) ?? { id, count: 0, last: e.at, query: e.query };
        r.count++;
        if (e.at >= r.last) {
          r.last = e.at;
          r.query = e.query;
        }
        by.set(id, r);
      }
    }
  }
  const memories = [...by.values()].sort((a, b) => b.count - a.count || b.last.localeCompare(a.last)).slice(0, top);
  return { searches, memories };
}

export async function recallCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const since = sinceOf(a.since ?? '7d', Date.now());
  const r = topRecalled(cfg.data_dir, since, a.top ?? 20);
  if (a.json) {
    process.stdout.write(`${JSON.stringify({ since: new Date(since).toISOString(), ...r }, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines = [`${r.searches} searches since ${new Date(since).toISOString()}; most recalled:`];
  if (r.memories.length === 0) lines.push('  (none)');
  r.memories.forEach((m, i) =>
    lines.push(`${String(i + 1).padStart(3)}. ${String(m.count).padStart(5)}×  ${m.id}  (last ${m.last}, "${m.query.slice(0, 60)}")`),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
