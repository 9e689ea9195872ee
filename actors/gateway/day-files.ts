// Logs kept as one JSON-lines file per day under a size cap (the recall log, the audit trail).
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
