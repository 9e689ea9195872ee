// Episodes under kill -9 (issue 10): clients post bursts of chat messages and tasks while the daemon — its own
// process — is killed at a random moment, cycle after cycle, on one data dir. After every restart each acknowledged
// episode is in the journal (it was fsync'd before the answer) and in the index once caught up (the replay from the
// checkpoint projected what the kill cut short); the journal has no torn line but possibly the last one a kill cut,
// which the restart cut off; chunks, FTS and vectors agree.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { ProcessDaemon } from './lib/daemon-process.js';
import { rng } from './lib/load.js';

export interface EpisodeCrashReport {
  cycles: number;
  /** Episodes whose POST was answered 200 (durable, by contract). */
  acknowledged: number;
  /** Acknowledged episodes missing from the journal after a restart. */
  lost: number;
  /** Acknowledged episodes in the journal but not in the index once caught up. */
  notProjected: number;
  /** Requests the kill cut off (not acknowledged: their episodes may or may not be there). */
  cutOff: number;
  servingMs: number[];
  caughtUpMs: number[];
  problems: string[];
}

const SESSIONS = 12;
const CLIENTS = 4;

/** Episode ids in the journal files (a last line cut short by the kill is no episode). */
function journaled(dataDir: string): { ids: Set<string>; torn: number } {
  const dir = path.join(dataDir, 'episodes');
  const ids = new Set<string>();
  let torn = 0;
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return { ids, torn };
  }
  for (const f of files) {
    const lines = readFileSync(path.join(dir, f), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line) return;
      try {
        const r = JSON.parse(line) as { k: string; ep?: { type: string; session_id?: string; message_id?: string; task_id?: string } };
        if (r.k !== 'ep' || !r.ep) return;
        ids.add(r.ep.type === 'chat' ? `chat:${r.ep.session_id}:${r.ep.message_id}` : `task:${r.ep.task_id}`);
      } catch {
        if (i < lines.length - 1) torn++; // only a last line may be cut (the next start cuts it off)
      }
    });
  }
  return { ids, torn };
}

/** Episode ids the index holds: every message of every chat turn, and every task. */
function indexed(dataDir: string): { ids: Set<string>; drift: number } {
  const db = openIndex(path.join(dataDir, 'index.sqlite'), { readonly: true });
  try {
    const ids = new Set<string>();
    for (const row of db.prepare(`SELECT source_type, source_id, metadata FROM memory_documents WHERE deleted_at IS NULL`).all() as Array<{
      source_type: string;
      source_id: string;
      metadata: string;
    }>) {
      if (row.source_type === 'task') ids.add(`task:${row.source_id}`);
      if (row.source_type !== 'chat') continue;
      const m = JSON.parse(row.metadata) as { session_id: string; messages: Array<{ id: string }> };
      for (const x of m.messages) ids.add(`chat:${m.session_id}:${x.id}`);
    }
    const c = new IndexReader(db).consistency();
    return { ids, drift: Object.values(c).reduce((a, b) => a + b, 0) };
  } finally {
    db.close();
  }
}

export async function runEpisodeCrash(opts: {
  cycles: number;
  seed?: number;
  log?: (line: string) => void;
  keep?: boolean;
}): Promise<EpisodeCrashReport> {
  const seed = opts.seed ?? Date.now() % 1_000_000;
  const log = opts.log ?? (() => {});
  const rand = rng(seed);
  const v = makeVault({ 'Inbox/seed.md': '# Seed\n\nA note so the vault is not empty.\n' });
  const cfg = testConfig(v.dir, '', { logLevel: 'info' });
  const logFile = path.join(path.dirname(v.dir), 'daemon.log');
  const d = new ProcessDaemon({ vault: v.dir, configFile: cfg.config_file!, dataDir: cfg.data_dir, logFile });
  const acked = new Set<string>();
  const report: EpisodeCrashReport = {
    cycles: 0,
    acknowledged: 0,
    lost: 0,
    notProjected: 0,
    cutOff: 0,
    servingMs: [],
    caughtUpMs: [],
    problems: [],
  };
  log(`episodes: seed ${seed}; vault ${v.dir}; daemon log ${logFile}`);
  let n = 0;

  const check = (cycle: number): void => {
    const j = journaled(cfg.data_dir);
    const ix = indexed(cfg.data_dir);
    const lost = [...acked].filter((id) => !j.ids.has(id));
    const missing = [...acked].filter((id) => j.ids.has(id) && !ix.ids.has(id));
    report.lost += lost.length;
    report.notProjected += missing.length;
    if (lost.length)
      report.problems.push(`cycle ${cycle}: ${lost.length} acknowledged episodes not in the journal, e.g. ${lost.slice(0, 3).join(', ')}`);
    if (missing.length)
      report.problems.push(`cycle ${cycle}: ${missing.length} journaled episodes not in the index, e.g. ${missing.slice(0, 3).join(', ')}`);
    if (j.torn) report.problems.push(`cycle ${cycle}: ${j.torn} torn journal lines before the last`);
    if (ix.drift) report.problems.push(`cycle ${cycle}: chunks, FTS and vectors disagree on ${ix.drift} rows`);
  };

  const burst = (stop: { now: boolean }): Promise<void>[] =>
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (!stop.now) {
        const size = 1 + Math.floor(rand() * 40);
        const episodes = Array.from({ length: size }, () => {
          const i = ++n;
          return i % 25 === 0
            ? { type: 'task', task_id: `T${i}`, title: `Task number ${i} of the burst`, status: 'open' }
            : {
                type: 'chat',
                session_id: `s${i % SESSIONS}`,
                message_id: `m${i}`,
                role: Math.floor(i / SESSIONS) % 2 ? 'assistant' : 'user',
                text: `client ${c} says message ${i} about the quarterly numbers`,
              };
        });
        try {
          const r = await d.api('POST', '/v1/episodes', { episodes }, { timeoutMs: 30_000 });
          if (r.status === 200) for (const id of r.body.episode_ids as string[]) acked.add(id);
        } catch {
          report.cutOff++; // the kill cut this request: not acknowledged
          return;
        }
      }
    });

  try {
    for (let cycle = 0; cycle <= opts.cycles; cycle++) {
      const t0 = performance.now();
      report.servingMs.push(Math.round((await d.start()).servingMs));
      await d.caughtUp();
      report.caughtUpMs.push(Math.round(performance.now() - t0));
      if (cycle > 0) check(cycle);
      if (cycle === opts.cycles) break;
      const stop = { now: false };
      const clients = burst(stop);
      await new Promise((r) => setTimeout(r, 300 + Math.floor(rand() * 1500))); // the kill's random moment is the point
      stop.now = true;
      await d.kill9();
      await Promise.all(clients);
      report.cycles++;
      log(`episodes cycle ${cycle + 1}: ${acked.size} acknowledged so far, ${report.cutOff} requests cut off`);
    }
  } finally {
    await d.stop();
    report.acknowledged = acked.size;
    if (report.problems.length === 0 && !opts.keep) v.cleanup();
    else log(`kept ${path.dirname(v.dir)} for inspection`);
  }
  return report;
}
