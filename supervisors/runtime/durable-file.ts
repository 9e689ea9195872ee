// One way to replace a small state file whole: written to a temp file beside it (mode 0600), fsync'd, renamed over
// it — a crash leaves the old text or the new, never half of either. The scheduler's, the sleep job's and the dream's
// state files and WebDAV's locks and properties all use it.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Replaces `file` with `text` atomically; `durable` false skips the fsync (the rename is still atomic). */
export function replaceFileSync(file: string, text: string, durable = true): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, text);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true }); // a failed write (disk full) leaves no temp file behind
    throw err;
  }
}
