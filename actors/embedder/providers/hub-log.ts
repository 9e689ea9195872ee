// Hub download events as words: one line per file started, every tenth of a big file, each retry and the end —
// what `memvault models pull` prints without a TTY and what the daemon logs while it downloads at first use.
import type { HubEvent } from './hub.js';

const MB = 1024 * 1024;
/** Files smaller than this get no progress lines of their own, only their start. */
const QUIET_BELOW = 4 * MB;

export function megabytes(n: number): string {
  return `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`;
}

/** A sink for HubEvents that hands `line` one sentence (and the event) at the moments worth a log line. */
export function hubEventLines(line: (text: string, e: HubEvent) => void): (e: HubEvent) => void {
  const shown = new Map<string, number>(); // file → last tenth reported
  return (e) => {
    switch (e.type) {
      case 'waiting':
        return line(`${e.repo}: another loader (pid ${e.holder.pid}) is downloading it; waiting for it`, e);
      case 'file':
        shown.set(e.file, e.resumeFrom > 0 && e.size ? Math.floor((10 * e.resumeFrom) / e.size) : 0);
        return line(
          `${e.repo}: downloading ${e.file}${e.size !== null ? ` (${megabytes(e.size)})` : ''}${e.resumeFrom > 0 ? `, resuming at ${megabytes(e.resumeFrom)}` : ''}`,
          e,
        );
      case 'progress': {
        if (!e.total || e.total < QUIET_BELOW) return;
        const tenth = Math.floor((10 * e.done) / e.total);
        if (tenth <= (shown.get(e.file) ?? 0) || tenth >= 10) return;
        shown.set(e.file, tenth);
        return line(`${e.repo}: ${e.file} ${tenth * 10} % (${megabytes(e.done)} of ${megabytes(e.total)})`, e);
      }
      case 'retry':
        return line(`${e.repo}: ${e.reason}: ${e.message} (attempt ${e.attempt + 1})`, e);
      case 'cache_corrupt':
        return line(`${e.repo}: cached ${e.file} refused (${e.message}); downloading it again`, e);
      case 'downloaded':
        return line(`${e.repo}: downloaded ${megabytes(e.bytes)} in ${(e.ms / 1000).toFixed(1)} s into ${e.dir}`, e);
    }
  };
}
