// Logs kept as one JSON-lines file per day under a size cap (the recall log, the audit trail).
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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

/** The appending side of a day-file log: the caller keeps its own queue, so appends run one at a time, in order. */
export class DayFileWriter {
  readonly #dir: string;
  readonly #maxBytes: number;
  #bytes: number | null = null;

  constructor(dir: string, maxMb: number) {
    this.#dir = dir;
    this.#maxBytes = Math.round(maxMb * 1024 * 1024);
  }

  /** Appends `line` to the file of `day` (YYYY-MM-DD), dropping the oldest files when over the cap; returns the size. */
  async append(day: string, line: string): Promise<number> {
    if (this.#bytes === null) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      this.#bytes = await this.size();
    }
    await appendFile(path.join(this.#dir, `${day}.jsonl`), line, { mode: 0o600 });
    this.#bytes += Buffer.byteLength(line);
    if (this.#bytes > this.#maxBytes) this.#bytes = await trimDayFiles(this.#dir, await dayFiles(this.#dir), this.#maxBytes);
    return this.#bytes;
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
