// The store-writer actor: the one owner of the index's write connection; applies every mutation in a transaction.
import { Counter, Histogram } from 'prom-client';
import type Database from 'better-sqlite3';
import { type ActorCtx, runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import type { StoreMsg } from '../../messages/to-store.js';
import type { Asks, Sends } from '../../supervisors/actors.js';
import { openIndex } from './schema.js';
import { IndexWriter } from './index-writer.js';
import { IndexReader } from './index-reader.js';
import { failedDone, StoreApplier } from './apply.js';
import { CHUNKER_VERSION } from '../chunker/version.js';
import { swapIndexFiles } from './swap.js';
import { pruneEpisodes } from './episodes.js';
import { markDegraded, storeFault, writeWithRetry, type RetryDeps } from './write-retry.js';
import { GitDating } from './recorded-at.js';
import { IDLE_MS, IdleMerge } from './fts-merge.js';
import { damagedIndexMet } from './damage-rebuild.js';

const { b, board, log } = boot();

const files = new Counter<'outcome'>({
  name: 'memvault_files_indexed_total',
  help: 'Files finished by the store writer, by outcome',
  labelNames: ['outcome'],
});
const chunks = new Counter({ name: 'memvault_chunks_indexed_total', help: 'Chunks written to the index' });
const searchable = new Histogram<'source_type'>({
  name: 'memvault_episode_searchable_seconds',
  help: 'From an episode (or fact) being received to its document being searchable, by source type',
  labelNames: ['source_type'],
  buckets: [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 15, 60],
});

const blames = new Counter<'outcome'>({
  name: 'memvault_fact_blames_total',
  help: 'Notes whose new fact lines were dated from git: by blame (stamped), by the log of notes added once and never changed (stamped_from_log), or not (not_in_git, failed)',
  labelNames: ['outcome'],
});

const dating = new GitDating(b.config.vault);

interface State {
  db: Database.Database;
  /** Null while the disk did not let us open the index for writing at start (`db` is then read-only). */
  applier: StoreApplier | null;
}

function open(): State {
  const db = openIndex(b.dbFile, { readonly: false, cacheMiB: 16 });
  const writer = new IndexWriter(db, { userId: b.config.user_id, model: null, chunkerVersion: CHUNKER_VERSION, now: Date.now });
  return { db, applier: new StoreApplier(writer, new IndexReader(db, { userId: b.config.user_id })) };
}

const waitDeps = { board, log, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

/** The write side, opening it first if the disk refused it at start (throws the disk's error while it still does). */
function applier(state: State): StoreApplier {
  if (!state.applier) {
    state.db.close();
    Object.assign(state, open());
  }
  return state.applier!;
}

/**
 * Started on a read-only or full disk: serve with a read-only connection rather than crash in a restart loop (or
 * block the supervisor in init); the first write then waits in writeWithRetry until the disk lets it through.
 */
function openOrWait(): State {
  try {
    return open();
  } catch (err) {
    const f = storeFault(err);
    if (!f) throw err;
    markDegraded(waitDeps, f, err);
    return { db: openIndex(b.dbFile, { readonly: true, cacheMiB: 4 }), applier: null };
  }
}

/** Disk full / read-only / I/O errors: keep the message, retry on a fresh connection, report it on the board. */
function retryDeps(ctx: { state: State; progress(): void }): RetryDeps {
  const reopen = (): void => {
    ctx.state.db.close();
    Object.assign(ctx.state, open());
  };
  return { ...waitDeps, reopen, progress: () => ctx.progress() };
}

/**
 * The index file was deleted while open (main saw it go and made a fresh one at the same path): this connection
 * still writes to the unlinked file, so reopen the path, tell readers to reopen (indexGeneration), and have the
 * watcher rescan — against the empty index that re-sends every note.
 */
function reopenLostIndex(ctx: { state: State; emit(m: Sends<'store'>): void }, reason: string): void {
  ctx.state.db.close();
  Object.assign(ctx.state, open());
  board.add('indexGeneration', 1);
  log.warn({ event: 'index_reopened', file: b.dbFile, reason }, 'reopened a fresh index file; rebuilding it from the vault');
  ctx.emit({ type: 'watcher.rescan', reason: `index file lost: ${reason}` });
  ctx.emit({ type: 'memory.rescan', reason: `index file lost: ${reason}` });
}

/** The full-text tables merged into one segment once the writer is idle (fts-merge.ts). */
let merge: IdleMerge | null = null;

function startMerging(state: State): void {
  merge = new IdleMerge({
    db: () => (state.applier ? state.db : null),
    idleMs: IDLE_MS,
    merged: ({ table, steps, ms, before }) => {
      board.add('ftsMerges', 1);
      log.event('fts_merged', { table, steps, ms, segments_before: before.segments, pages_before: before.pages });
    },
    failed: (table, err) =>
      log.warn({ event: 'fts_merge_failed', table, detail: err.message }, 'the full-text index stays as it is until the next idle'),
  });
  merge.busy(); // an index left scattered by the last run is merged once the start-up work is done
}

async function handle(msg: StoreMsg, ctx: ActorCtx<Sends<'store'>, State>): Promise<void> {
  if (msg.type === 'store.swap_index') {
    ctx.state.db.close();
    swapIndexFiles(msg.next, b.dbFile);
    Object.assign(ctx.state, open());
    board.add('indexGeneration', 1);
    log.event('index_swapped', { file: b.dbFile });
    ctx.emit({ type: 'watcher.rescan', reason: 'index swapped' });
    ctx.emit({ type: 'memory.rescan', reason: 'index swapped' });
    ctx.reply({ swapped: true });
    return;
  }
  if (msg.type === 'store.reopen_index') return reopenLostIndex(ctx, msg.reason);
  if (msg.type === 'store.episodes' && msg.batch.generation !== board.get('indexGeneration')) {
    // built for the index file before a swap: the memory actor replays against the new one
    ctx.emit({ type: 'memory.projected', batch: msg.batch.id });
    return;
  }
  if (msg.type === 'store.prune_episodes') {
    const counts = await writeWithRetry(() => pruneEpisodes(applier(ctx.state).writer, msg.cutoffs), retryDeps(ctx));
    board.set('lastIndexedAt', Date.now());
    board.add('storeWrites', 1);
    ctx.reply(counts);
    return;
  }
  // recorded_at from git for fact lines new to the index: read before the write's transaction (git answers async)
  if (msg.type === 'store.upsert' && msg.note.facts?.length) {
    const n = msg.note;
    const stamped = await dating.stamp(ctx.state.db, b.config.user_id, n.path, n.facts!, n.contentHash).catch((err: Error) => {
      log.warn({ event: 'fact_blame_failed', path: msg.note.path, detail: err.message }, 'new facts keep the index time');
      return 'failed' as const;
    });
    if (stamped !== 'none_new') blames.inc({ outcome: stamped });
  }
  const out = await writeWithRetry(() => applier(ctx.state).apply(msg), retryDeps(ctx));
  board.set('lastIndexedAt', Date.now());
  board.add('storeWrites', 1);
  if (msg.type === 'store.upsert' || msg.type === 'store.delete' || msg.type === 'store.rename') board.add('vaultWrites', 1);
  board.add('chunksIndexed', out.chunks);
  chunks.inc(out.chunks);
  if (out.mismatch)
    log.event(
      'model_mismatch',
      { detail: out.mismatch },
      'vectors not stored: run `memvault reindex` to rebuild with the configured model',
    );
  if (out.episodes) {
    for (const l of out.episodes.latencies) searchable.observe({ source_type: l.sourceType }, l.seconds);
    // read-your-writes for memory_remember: keyed apart from vault paths (which never hold a NUL)
    for (const f of out.episodes.facts) ctx.emit({ type: 'gateway.indexed', path: `\u0000fact:${f.id}`, contentHash: f.contentHash });
    ctx.emit({ type: 'memory.projected', batch: out.episodes.batch });
  }
  for (const d of out.done) {
    files.inc({ outcome: d.outcome });
    if (d.outcome === 'indexed') log.event('memory_ingest', { path: d.path, chunks: out.chunks });
    else if (d.outcome === 'failed' && msg.type === 'store.file_failed')
      log.event('memory_ingest_failed', { path: d.path, reason: msg.reason, detail: msg.message });
    else if (d.outcome === 'deleted') log.event('memory_delete', { path: d.path });
    else if (d.outcome === 'stale')
      log.warn({ event: 'index_row_missing', path: d.path }, 'no indexed row to touch: the note is read again');
    else if (d.outcome === 'renamed' && msg.type === 'store.rename' && d.path === msg.to)
      log.event('memory_rename', { from: msg.from, to: msg.to });
    ctx.emit(d);
    // read-your-writes: the gateway learns when a path's new content (or its absence) is indexed
    if (d.outcome !== 'failed' && d.outcome !== 'stale')
      ctx.emit({ type: 'gateway.indexed', path: d.path, contentHash: d.state?.contentHash ?? null });
  }
}

const damagedIndex = damagedIndexMet(b.mode === 'serve', log);

/**
 * A page of the index file damaged on disk, met by a write: where the store crashed on every message that touched it
 * until its supervisor gave up (SQLITE_CORRUPT six times in 30 s took the ingest tree down), the daemon rebuilds the
 * index as `memvault reindex` does — built beside from the vault and the journal, swapped in, then the watcher and the
 * memory actor catch up with what changed meanwhile — and this message is dropped: the rebuild and that catch-up
 * index what it carried. Not awaited: the swap at the end is a message to this actor. A one-shot run (itself a
 * rebuild) crashes as before.
 */
function rebuildDamaged(ctx: ActorCtx<Sends<'store'>, State, Asks<'store'>>, msg: StoreMsg, err: unknown): boolean {
  if (!damagedIndex(err, () => ctx.request({ type: 'main.reindex' }, null), { msg: msg.type })) return false;
  // the watcher's single flight for the paths it carried is released; the rescan after the swap sends them again
  for (const d of failedDone(msg)) ctx.emit(d);
  return true;
}

runActor<StoreMsg, Sends<'store'>, State, Asks<'store'>>(
  async (msg, ctx) => {
    merge?.busy();
    try {
      await handle(msg, ctx);
    } catch (err) {
      if (!rebuildDamaged(ctx, msg, err)) throw err;
    } finally {
      merge?.busy();
    }
  },
  // git's log for dating facts is read when a note first brings new facts (recorded-at.ts), not at every start
  () => {
    const state = openOrWait();
    startMerging(state);
    return state;
  },
);
