// The recall log: every search answered to an agent (query, result ids, caller, time) appended to
// `<data dir>/recall/YYYY-MM-DD.jsonl` (UTC day), kept under `recall.max_mb` by dropping the oldest day files first.
// The signal later consolidation uses; `memvault recall` reads it. Losing a line to a crash costs a signal, not data,
// so lines are appended without an fsync each.
import { appendFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SearchResponse, SearchResult } from './index-view.js';
import { trimDayFiles } from './day-files.js';

const FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

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
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #wallNow: () => number;
  #bytes: number | null = null;
  #chain: Promise<unknown> = Promise.resolve();
  /** Told the log's size after each append (a gauge). */
  onSize: (bytes: number) => void = () => {};

  constructor(dataDir: string, maxMb: number, wallNow: () => number = Date.now) {
    this.#dir = path.join(dataDir, 'recall');
    this.#maxBytes = Math.round(maxMb * 1024 * 1024);
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
    const line = `${JSON.stringify(e)}\n`;
    if (this.#bytes === null) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      this.#bytes = await this.size();
    }
    await appendFile(path.join(this.#dir, `${e.at.slice(0, 10)}.jsonl`), line, { mode: 0o600 });
    this.#bytes += Buffer.byteLength(line);
    if (this.#bytes > this.#maxBytes) this.#bytes = await this.#trim();
    this.onSize(this.#bytes);
  }

  /** Bytes in the recall files now. */
  async size(): Promise<number> {
    let n = 0;
    for (const f of await this.#files()) n += (await stat(path.join(this.#dir, f)).catch(() => ({ size: 0 }))).size;
    return n;
  }

  /** Drops the oldest day files until the log fits; today's alone over the cap keeps its newer half. Returns the size. */
  async #trim(): Promise<number> {
    return trimDayFiles(this.#dir, await this.#files(), this.#maxBytes);
  }

  async #files(): Promise<string[]> {
    try {
      return (await readdir(this.#dir)).filter((f) => FILE.test(f)).sort();
    } catch {
      return [];
    }
  }
}
