// The recall log: every search answered to an agent (query, result ids, caller, time) appended to
// `<data dir>/recall/YYYY-MM-DD.jsonl` (UTC day), kept under `recall.max_mb` by dropping the oldest day files first.
// The signal later consolidation uses; `memvault recall` reads it. Losing a line to a crash costs a signal, not data,
// so lines are appended without an fsync each.
import path from 'node:path';
import type { SearchResponse, SearchResult } from './index-view.js';
import { DayFileWriter } from './day-files.js';

export interface RecallEntry {
  at: string;
  caller: string;
  transport: string;
  query: string;
  mode: string;
  /** `vault:<path>`, `fact:<fact id>`, `chat:<turn>`, `task:<id>`, `correction:<id>`, best first. */
  results: string[];
}

/** The id a result is recalled by: stable across searches, whatever its source. */
export function recallId(r: SearchResult): string {
  if (r.episode_id !== undefined) return r.episode_id;
  if (r.fact_id !== undefined) return `fact:${r.fact_id}`;
  return `vault:${r.path ?? ''}`;
}

export class RecallLog {
  readonly #writer: DayFileWriter;
  readonly #wallNow: () => number;
  #chain: Promise<unknown> = Promise.resolve();
  /** Told the log's size after each append (a gauge). */
  onSize: (bytes: number) => void = () => {};

  constructor(dataDir: string, maxMb: number, wallNow: () => number = Date.now) {
    this.#writer = new DayFileWriter(path.join(dataDir, 'recall'), maxMb);
    this.#wallNow = wallNow;
  }

  /** Appends one search's entry (in order, one at a time); a failure is reported, never thrown at the search. */
  record(r: SearchResponse, query: string, caller: { agent: string; transport: string }): Promise<void> {
    const entry: RecallEntry = {
      at: new Date(this.#wallNow()).toISOString(),
      caller: caller.agent,
      transport: caller.transport,
      query,
      mode: r.mode,
      results: r.results.map(recallId),
    };
    const next = this.#chain.then(() => this.#append(entry));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #append(e: RecallEntry): Promise<void> {
    this.onSize(await this.#writer.append(e.at.slice(0, 10), `${JSON.stringify(e)}\n`));
  }

  /** Bytes in the recall files now. */
  size(): Promise<number> {
    return this.#writer.size();
  }
}
