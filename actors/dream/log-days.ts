// The fact log as the dream reads it (read-only): which day logs exist and how many live facts each holds (the
// gate), and a batch's facts with their stable ids (the prompt and coverage). Forgotten facts are left out.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isForgotten, type ParsedFact, parseDayLog, parseTombstones, type Tombstones } from '../memory/fact-log.js';
import type { MemoryPaths } from '../memory/paths.js';
import type { DayFacts } from './gate.js';

const DAY = /^\d{4}-\d{2}-\d{2}\.md$/;

async function text(abs: string): Promise<string | null> {
  try {
    return await readFile(abs, 'utf8');
  } catch {
    return null;
  }
}

export interface BatchFact extends ParsedFact {
  date: string;
}

export class LogDays {
  constructor(
    readonly vault: string,
    readonly memory: MemoryPaths,
  ) {}

  #abs(rel: string): string {
    return path.join(this.vault, ...rel.split('/'));
  }

  async #tombstones(): Promise<Tombstones> {
    return parseTombstones((await text(this.#abs(this.memory.tombstones))) ?? '');
  }

  /** The live facts of one day. */
  async factsOf(date: string, tombstones?: Tombstones): Promise<BatchFact[]> {
    const t = tombstones ?? (await this.#tombstones());
    const body = await text(this.#abs(this.memory.dayLog(date)));
    if (body === null) return [];
    return parseDayLog(body, date)
      .filter((f) => !isForgotten(t, f.norm, date, f))
      .map((f) => ({ ...f, date }));
  }

  /** Days after `after` (all when null) with their live fact counts, oldest first. */
  async days(after: string | null): Promise<DayFacts[]> {
    let names: string[];
    try {
      names = await readdir(this.#abs(this.memory.logFolder));
    } catch {
      return [];
    }
    const t = await this.#tombstones();
    const out: DayFacts[] = [];
    for (const n of names.filter((x) => DAY.test(x)).sort()) {
      const date = n.slice(0, 10);
      if (after !== null && date <= after) continue;
      out.push({ date, facts: (await this.factsOf(date, t)).length });
    }
    return out;
  }

  async batch(dates: readonly string[]): Promise<BatchFact[]> {
    const t = await this.#tombstones();
    const out: BatchFact[] = [];
    for (const d of dates) out.push(...(await this.factsOf(d, t)));
    return out;
  }
}
