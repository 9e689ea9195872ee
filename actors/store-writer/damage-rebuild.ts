// Asking main to rebuild a damaged index file (the reindex `memvault reindex` runs: built beside, swapped in), one
// request at a time, and logging how it went. The gateway asks when a read meets a damaged page, the store writer when
// a write does, the embedder and the memory actor when their reads do.
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { isDamagedIndex } from './damaged-index.js';

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

/**
 * For an actor that reads the index while serving (the store writer, the embedder, the memory actor): `met(err, ask)`
 * says whether `err` is a damaged page of the index file, and if so has main rebuild it through `ask` (once until that
 * rebuild is done), logged as `index_damaged` with `fields`, so the actor carries on instead of going down on every
 * message until the swap. False in a one-shot run (itself a build) and for any other error: the caller throws it.
 */
export function damagedIndexMet(
  serving: boolean,
  log: EventLogger,
  meanwhile = '',
): (err: unknown, ask: Rebuild, fields?: Record<string, unknown>) => boolean {
  let once: (() => boolean) | null = null;
  return (err, ask, fields = {}) => {
    if (!serving || !isDamagedIndex(err)) return false;
    once ??= rebuildOnce(ask, log);
    if (once())
      log.error({ event: 'index_damaged', ...fields, err: (err as Error).message }, `the index file is damaged; rebuilding it${meanwhile}`);
    return true;
  };
}
