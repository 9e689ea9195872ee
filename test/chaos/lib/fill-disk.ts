// Fills a file system for real: appends to `file` until the disk says ENOSPC, in big then small pieces.
import { closeSync, openSync, writeSync } from 'node:fs';

/** Returns the bytes written; afterwards not even 512 more bytes fit. */
export function fillDisk(file: string): number {
  const fd = openSync(file, 'a');
  let total = 0;
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
      const buf = Buffer.alloc(size, 0x61);
      for (;;) {
        try {
          total += writeSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return total;
}
