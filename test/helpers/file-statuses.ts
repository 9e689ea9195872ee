// The index's file statuses as `path state reason` lines, read as the status page reads them (a read-only view).
import { openDirect } from '../../bin/direct.js';
import type { Config } from '../../config/load.js';

export function fileStatusLines(cfg: Config): string[] {
  const view = openDirect(cfg)!;
  try {
    return view.reader.fileStatuses().map((f) => `${f.path} ${f.state} ${f.reason}`);
  } finally {
    view.close();
  }
}
