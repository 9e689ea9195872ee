// A file's bytes, or null when it does not exist yet (a day log, the tombstones file, a note): the fact log's
// readers and writers start from "no file" as from an empty one. Any other read error is a bug and is thrown.
import { readFile } from 'node:fs/promises';

export async function readIfPresent(abs: string): Promise<Buffer | null> {
  try {
    return await readFile(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
