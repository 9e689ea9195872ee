// The episode journal: the durable record of every episode, tombstone and session close, one JSON line each in
// `<data dir>/episodes/YYYY-MM-DD.jsonl` (UTC day of receipt). Appends are group-committed: every caller waiting
// when a write starts shares its one fdatasync, and nobody is answered before the bytes are on disk.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { JournalCheckpoint, JournalEntry, JournalRecord } from '../../messages/episodes.js';

const FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

interface Waiting {
  records: JournalRecord[];
  resolve: (r: JournalRecord[]) => void;
  reject: (e: unknown) => void;
}

export interface JournalOptions {
  /** Wall clock (epoch ms): the receipt time recorded and the day file chosen. */
  wallNow: () => number;
  /** A reindex building another index file reads the journal but never writes it (the live daemon owns it). */
  readOnly: boolean;
  /** Called with each batch once it is on disk, in seq order, before any caller is answered. */
  onDurable?: (records: JournalRecord[]) => void;
  /** Told when a torn last line (a write cut short by a crash, never acknowledged) was cut off at open. */
  onRepair?: (file: string, bytes: number) => void;
}

export class Journal {
  readonly dir: string;
  readonly #o: JournalOptions;
  #next: number;
  #queue: Waiting[] = [];
  #flushing: Promise<void> | null = null;
  #fh: FileHandle | null = null;
  #fhDay = '';
  #size = 0;

  private constructor(dir: string, opts: JournalOptions, next: number) {
    this.dir = dir;
    this.#o = opts;
    this.#next = next;
  }

  /** Opens the journal folder (made if missing), cutting off a torn last line; the next seq follows the last one. */
  static open(dir: string, opts: JournalOptions): Journal {
    if (!opts.readOnly) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const files = listFiles(dir);
    let last = 0;
    for (let i = files.length - 1; i >= 0 && last === 0; i--) {
      const file = path.join(dir, files[i]!);
      const text = readFileSync(file, 'utf8');
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length && !opts.readOnly && i === files.length - 1) {
        truncateSync(file, Buffer.byteLength(text.slice(0, end)));
        opts.onRepair?.(file, Buffer.byteLength(text) - Buffer.byteLength(text.slice(0, end)));
      }
      const lines = text.slice(0, end).split('\n');
      for (let j = lines.length - 1; j >= 0; j--) {
        const r = parseLine(lines[j]!);
        if (r) {
          last = r.seq;
          break;
        }
      }
    }
    return new Journal(dir, opts, last + 1);
  }

  /** The seq the next record gets: every record so far has a smaller one. */
  get nextSeq(): number {
    return this.#next;
  }

  /** Journals `entries` (seqs assigned now, in call order); resolves once they are on disk. */
  append(entries: JournalEntry[], agent: string): Promise<JournalRecord[]> {
    if (this.#o.readOnly) return Promise.reject(new Error('the journal is read-only in this process'));
    const rt = this.#o.wallNow();
    const records = entries.map((e) => ({ ...e, seq: this.#next++, rt, agent }) as JournalRecord);
    return new Promise((resolve, reject) => {
      this.#queue.push({ records, resolve, reject });
      if (!this.#pumping) this.#flushing = this.#flush();
    });
  }

  /** Resolves once no append is queued or being written (everything numbered so far is on disk or refused). */
  async settled(): Promise<void> {
    while (this.#pumping || this.#queue.length > 0) await this.#flushing;
  }

  /** True from the start of a flush until its loop finds the queue empty (set and cleared synchronously). */
  #pumping = false;

  async #flush(): Promise<void> {
    this.#pumping = true;
    // the loop's last look at the queue and clearing the flag happen in one synchronous step: an append made after
    // it starts a flush of its own, one made before it is taken by this loop
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      const records = batch.flatMap((w) => w.records);
      try {
        await this.#write(records);
      } catch (err) {
        for (const w of batch) w.reject(err);
        continue;
      }
      try {
        this.#o.onDurable?.(records); // a throw here is a bug: it escapes (the actor restarts and replays)
      } finally {
        for (const w of batch) w.resolve(w.records); // on disk either way
      }
    }
    this.#pumping = false;
  }

  async #write(records: JournalRecord[]): Promise<void> {
    // a batch spans two files only across midnight UTC: each part goes to its own day
    const byDay = new Map<string, string[]>();
    for (const r of records) {
      const d = dayOf(r.rt);
      const lines = byDay.get(d) ?? [];
      lines.push(JSON.stringify(r));
      byDay.set(d, lines);
    }
    for (const [day, lines] of byDay) {
      const fh = await this.#file(day);
      const buf = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      const before = this.#size;
      try {
        await fh.write(buf);
        await fh.datasync();
        this.#size += buf.length;
      } catch (err) {
        // a short write (disk full) must not leave half a line for the next append to run into
        await fh.truncate(before).catch(() => undefined);
        throw err;
      }
    }
  }

  async #file(day: string): Promise<FileHandle> {
    // a file deleted under us (the data dir or the journal removed while the daemon runs) is linked nowhere: appends
    // to it were answered as durable and gone at the next start. One fstat per group commit finds that out.
    if (this.#fh && this.#fhDay === day && (await this.#fh.stat()).nlink > 0) return this.#fh;
    await this.#fh?.close();
    this.#fh = null;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${day}.jsonl`);
    const existed = statSync(file, { throwIfNoEntry: false });
    this.#fh = await open(file, 'a', 0o600);
    this.#fhDay = day;
    this.#size = existed?.size ?? 0;
    if (!existed) {
      // the new file's name must survive a crash too
      const d = openSync(this.dir, 'r');
      try {
        fsyncSync(d);
      } finally {
        closeSync(d);
      }
    }
    return this.#fh;
  }

  /** Journal files in order, oldest first. */
  files(): string[] {
    return listFiles(this.dir);
  }

  /**
   * Records from `from` on (every file when null), up to but excluding `until`, file by file: each call of the
   * callback gets one file's records in order.
   */
  *read(from: JournalCheckpoint | null, until: number): Generator<JournalRecord[]> {
    for (const f of listFiles(this.dir)) {
      if (from && f < from.file) continue;
      let text: string;
      try {
        text = readFileSync(path.join(this.dir, f), 'utf8');
      } catch {
        continue; // dropped by retention meanwhile
      }
      const out: JournalRecord[] = [];
      for (const line of text.split('\n')) {
        const r = parseLine(line);
        if (r && r.seq >= (from?.seq ?? 0) && r.seq < until) out.push(r);
      }
      if (out.length) yield out;
    }
  }

  /** Removes day files older than `day` (YYYY-MM-DD), never the one being written; returns how many. */
  dropBefore(day: string): number {
    let n = 0;
    for (const f of listFiles(this.dir)) {
      const d = FILE.exec(f)![1]!;
      if (d >= day || d === this.#fhDay) continue;
      rmSync(path.join(this.dir, f), { force: true });
      n++;
    }
    return n;
  }

  async close(): Promise<void> {
    await this.#flushing;
    await this.#fh?.close();
    this.#fh = null;
  }
}

/** The journal's day files in `dir`, oldest first (none when the folder is missing). */
export function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => FILE.test(f))
      .sort();
  } catch {
    return [];
  }
}

/** A whole journal line, or null (a torn or foreign line is skipped, never guessed at). */
export function parseLine(line: string): JournalRecord | null {
  if (line.length === 0) return null;
  try {
    const r = JSON.parse(line) as JournalRecord;
    return typeof r === 'object' && r !== null && Number.isSafeInteger(r.seq) && typeof r.k === 'string' ? r : null;
  } catch {
    return null;
  }
}
