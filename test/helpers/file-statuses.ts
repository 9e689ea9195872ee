// The index's file statuses as `path state reason` lines, read as the status page reads them (a read-only view).
import { openDirect } from '../../bin/direct.js';
import type { Config } from '../../config/load.js';
import type { IndexReader } from '../../actors/store-writer/index-reader.js';

/** A reader's file statuses, one `path state reason` line each, by path. */
export function statusLines(reader: IndexReader): string[] {
  return reader.fileStatuses().map((f) => `${f.path} ${f.state} ${f.reason}`);
}

/** The same, read from a daemon's index through its configuration. */
export function fileStatusLines(cfg: Config): string[] {
  const view = openDirect(cfg)!;
  try {
    return statusLines(view.reader);
  } finally {
    view.close();
  }
}
