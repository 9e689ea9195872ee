// Keeps index writes alive through a full disk, a read-only file system or I/O errors: the store writer holds the
// message, reports why on the board, and retries with backoff until the write goes through — queued work waits, none is lost.
import type { Board } from '../../supervisors/runtime/board.js';
import { STORE_STATES, stateCode } from '../../supervisors/runtime/board.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';

export type StoreFault = Exclude<(typeof STORE_STATES)[number], 'ok'>;

/** Why a write failed, when the cause is outside the process and retrying later can succeed; null for anything else (a bug: throw). */
export function storeFault(err: unknown): StoreFault | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'disk_full';
  // DBMOVED: the index file was deleted or replaced under us; a retry would not fix that (the deleted-index check does)
  if (code === 'SQLITE_READONLY_DBMOVED') return null;
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'read_only';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === 'EIO') return 'io_error';
  return null;
}

/** What an operator reads in GET /v1/status while the store is degraded. */
export const STORE_REASONS: Record<StoreFault, string> = {
  disk_full: 'disk_full: the data directory is full; indexing waits and retries until space is freed',
  read_only: 'read_only: the index file or its file system is read-only; indexing waits and retries until it is writable',
  io_error: 'io_error: the index file cannot be written (I/O error); indexing waits and retries',
};

export interface RetryDeps {
  board: Board;
  log: EventLogger;
  /** Drops and reopens the write connection: a connection that hit a full disk or a read-only file starts afresh. */
  reopen(): void;
  /** Tells the actor host the message is still being worked on, so its stall watchdog does not restart us. */
  progress(): void;
  sleep(ms: number): Promise<void>;
  minMs?: number;
  maxMs?: number;
}

/** Records why index writes wait: the board slot GET /v1/status reads, and one log line with a stable reason. */
export function markDegraded(d: Pick<RetryDeps, 'board' | 'log'>, f: StoreFault, err: unknown): void {
  d.board.set('storeState', stateCode(STORE_STATES, f));
  const code = (err as { code?: string }).code;
  d.log.error({ event: 'store_degraded', reason: f, code, detail: String((err as Error).message) }, STORE_REASONS[f]);
}

/** Runs `write` until it succeeds; on a StoreFault waits (minMs doubling to maxMs) and retries; other errors throw. */
export async function writeWithRetry<T>(write: () => T, d: RetryDeps): Promise<T> {
  const maxMs = d.maxMs ?? 2_000;
  let delay = d.minMs ?? 100;
  let fault: StoreFault | null = null;
  let attempts = 0;
  const started = performance.now(); // a duration: monotonic, immune to clock jumps
  for (;;) {
    try {
      if (fault) d.reopen();
      const out = write();
      const was = d.board.get('storeState'); // also set by a start on a refusing disk, before any write
      if (was !== 0) {
        d.board.set('storeState', stateCode(STORE_STATES, 'ok'));
        d.log.warn(
          { event: 'store_recovered', reason: STORE_STATES[was], attempts, waited_ms: Math.round(performance.now() - started) },
          'index writes go through again',
        );
      }
      return out;
    } catch (err) {
      const f = storeFault(err);
      if (!f) throw err;
      // once per outage, not once per waiting message
      if (f !== fault && d.board.get('storeState') !== stateCode(STORE_STATES, f)) markDegraded(d, f, err);
      fault = f;
      attempts++;
      // alive while waiting: a progress report at least every 250 ms keeps any stall watchdog quiet
      for (let left = delay; left > 0; left -= 250) {
        d.progress();
        await d.sleep(Math.min(250, left));
      }
      delay = Math.min(delay * 2, maxMs);
    }
  }
}
