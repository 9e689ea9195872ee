// Logs kept as one JSON-lines file per day under a size cap (the recall log, the audit trail).
import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

/** The day files in `dir`, oldest first (none when it does not exist). */
export async function dayFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => FILE.test(f)).sort();
  } catch {
    return [];
  }
}

/**
 * The appending side of a day-file log: the caller keeps its own queue, so appends run one at a time, in order. The
 * day's file stays open: opening and closing it for each line cost ~125 µs of CPU a line on this machine (two logs,
 * the recall log and the audit trail, take a line of each search); an append to the open file, with the stat that
 * checks it is still the file at its path, ~30 µs of wall time and ~45 µs of CPU (scratch probe, 2,000 lines). It is
 * opened again when the day changes, after a trim, and when the file at its path is no longer the one open (deleted
 * or replaced).
 */
export class DayFileWriter {
  readonly #dir: string;
  readonly #maxBytes: number;
  #bytes: number | null = null;
  #open: { day: string; fd: number; ino: number } | null = null;

  constructor(dir: string, maxMb: number) {
    this.#dir = dir;
    this.#maxBytes = Math.round(maxMb * 1024 * 1024);
  }

  /** Appends `line` to the file of `day` (YYYY-MM-DD), dropping the oldest files when over the cap; returns the size. */
  async append(day: string, line: string): Promise<number> {
    this.#bytes ??= await this.size(); // the directory is made, if need be, when the day's file is opened
    const bytes = Buffer.from(line);
    const fd = this.#fileOf(day);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    this.#bytes += bytes.length;
    if (this.#bytes > this.#maxBytes) {
      this.close(); // the trim may rewrite the open file
      this.#bytes = await trimDayFiles(this.#dir, await dayFiles(this.#dir), this.#maxBytes);
    }
    return this.#bytes;
  }

  /** Closes the open day file (the next append opens it again). */
  close(): void {
    if (this.#open) closeSync(this.#open.fd);
    this.#open = null;
  }

  #fileOf(day: string): number {
    const file = path.join(this.#dir, `${day}.jsonl`);
    const o = this.#open;
    if (o && o.day === day && statSync(file, { throwIfNoEntry: false })?.ino === o.ino) return o.fd;
    this.close();
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 }); // first use, or gone since (the data dir emptied by hand)
    const fd = openSync(file, 'a', 0o600);
    this.#open = { day, fd, ino: fstatSync(fd).ino };
    return fd;
  }

  /** Bytes in the day files now. */
  async size(): Promise<number> {
    let n = 0;
    for (const f of await dayFiles(this.#dir)) n += (await stat(path.join(this.#dir, f)).catch(() => ({ size: 0 }))).size;
    return n;
  }
}

/**
 * Drops the oldest day files (`files`, oldest first) until the log fits `maxBytes`; today's alone over the cap keeps
 * its newer half (rewritten atomically, mode 0600). Returns the size left.
 */
export async function trimDayFiles(dir: string, files: string[], maxBytes: number): Promise<number> {
  const sizes = await Promise.all(files.map(async (f) => (await stat(path.join(dir, f)).catch(() => ({ size: 0 }))).size));
  let total = sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; i < files.length - 1 && total > maxBytes; i++) {
    await rm(path.join(dir, files[i]!), { force: true });
    total -= sizes[i]!;
  }
  const last = files.at(-1);
  if (total > maxBytes && last) {
    const file = path.join(dir, last);
    const text = await readFile(file, 'utf8');
    const half = text.slice(text.indexOf('\n', Math.floor(text.length / 2)) + 1);
    await writeFile(`${file}.tmp`, half, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    total = Buffer.byteLength(half);
  }
  return total;
}
