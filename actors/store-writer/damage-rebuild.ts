// Asking main to rebuild a damaged index file (the reindex `memvault reindex` runs: built beside, swapped in), one
// request at a time, and logging how it went. The gateway asks when a read meets a damaged page, the store writer when
// a write does.
import type { EventLogger } from '../../supervisors/runtime/log.js';

export type Rebuild = () => Promise<{ ok: boolean; documents: number; ms: number; error: string | null }>;

/** A trigger that asks `rebuild` unless a rebuild it asked for is still running; true when it asked. */
export function rebuildOnce(rebuild: Rebuild, log: EventLogger): () => boolean {
  let running: Promise<void> | null = null;
  const failed = (err: unknown): void =>
    log.error({ event: 'index_rebuild_failed', err: String(err) }, 'rebuilding the damaged index failed');
  return () => {
    if (running !== null) return false;
    running = rebuild()
      .then((r) => (r.ok ? log.event('index_rebuilt', { documents: r.documents, ms: r.ms }) : failed(r.error)), failed)
      .finally(() => {
        running = null;
      });
    return true;
  };
}
