// The embedder actor (worker thread): reuses stored vectors by chunk hash, batches the rest across notes into a
// piscina pool main owns (one model session per thread, so both cores work), and hands finished notes to the store writer.
import { Counter, Gauge, Histogram } from 'prom-client';
import { type ActorCtx, runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { EMBEDDER_STATES, stateCode } from '../../supervisors/runtime/board.js';
import { assertNever, type ModelInfo } from '../../messages/common.js';
import type { EmbedderMsg } from '../../messages/to-embedder.js';
import { ACTORS, type Asks, type Sends } from '../../supervisors/actors.js';
import { damagedIndexMet } from '../store-writer/damage-rebuild.js';
import { SwappedReader } from '../store-writer/swapped-reader.js';
import { Batcher } from './batcher.js';
import { providerSettings } from './factory.js';
import { splitRows } from './pool-task.js';
import { poolClient } from './pool-api.js';

const { b, board, log } = boot();
const cfg = b.config;
const settings = providerSettings(cfg);

const computed = new Counter({ name: 'memvault_embeddings_computed_total', help: 'Chunk vectors computed by the model' });
const reused = new Counter({ name: 'memvault_embeddings_reused_total', help: 'Chunk vectors reused from the index by chunk hash' });
const batchSize = new Histogram({
  name: 'memvault_embed_batch_size',
  help: 'Texts per model call',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128],
});
const batchSeconds = new Histogram({
  name: 'memvault_embed_batch_duration_seconds',
  help: 'Model call latency',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
});
const queueDepth = new Gauge({ name: 'memvault_embed_queue_depth', help: 'Texts waiting for a model call' });

interface State {
  /** Resolves once the pool has loaded the model (or failed to): the actor is ready before that, so the
   * pipeline behind it starts at once and the first notes simply wait here. */
  pool: Promise<{ model: ModelInfo | null; batcher: Batcher | null }>;
  /** The index's vectors by chunk hash, from the file now at the path (a reindex swaps a new one in). */
  index: SwappedReader;
}

/**
 * Signs of life for the stall watchdog while notes wait on main's pool: restarting this actor cannot speed up a
 * model that loads or a batch that runs there (the pool outlives us), and a restart under load only queued the
 * same work again behind the old until the note was dropped as poison. So every finished batch, and a tick while
 * the model is still loading, counts as progress; a hung event loop here still sends none.
 */
const waiting = new Set<() => void>();
/** One report is enough: the host counts it for every message in flight here. */
const alive = (): void => {
  const [progress] = waiting;
  progress?.();
};

async function whileWaiting<T>(progress: () => void, work: Promise<T>): Promise<T> {
  waiting.add(progress);
  try {
    return await work;
  } finally {
    waiting.delete(progress);
  }
}

/** Well inside the stall watchdog's limit for this actor (none when `supervisor.stall_ms` is 0). */
const TICK_MS = Math.max(10, Math.min(250, (cfg.supervisor.stall_ms * ACTORS.embedder.stall) / 4 || 250));

/** The pool once its model has loaded, reporting progress until then. */
async function poolReady(ctx: { state: State; progress(): void }): Promise<Awaited<State['pool']>> {
  const tick = setInterval(() => ctx.progress(), TICK_MS);
  try {
    return await ctx.state.pool;
  } finally {
    clearInterval(tick);
  }
}

async function startPool(): Promise<{ model: ModelInfo; batcher: Batcher } | { error: string }> {
  // main owns the pool (main/embed-pools.ts): it outlives this actor, so a restart finds the models loaded
  if (!b.port) throw new Error("the embedder needs workerData.port to main's embedding pools");
  const run = poolClient(b.port);
  const pool = { run: (task: Parameters<typeof run>[1]) => run('bulk', task) };
  try {
    // one probe per thread: every thread loads its model now, not on the first real batch
    const probes = await Promise.all(Array.from({ length: cfg.embedder.threads }, () => pool.run({ settings, texts: ['memvault'] })));
    const model = probes[0]!.info;
    const batcher = new Batcher({
      maxBatch: cfg.embedder.batch_size,
      windowMs: cfg.embedder.batch_window_ms,
      concurrency: cfg.embedder.threads,
      run: async (texts) => {
        board.add('embedCalls', 1);
        return splitRows(await pool.run({ settings, texts }));
      },
      onBatch: (n, ms) => {
        alive();
        batchSize.observe(n);
        batchSeconds.observe(ms / 1000);
        computed.inc(n);
      },
    });
    return { model, batcher };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { error: `${e.code ?? 'provider_failed'}: ${e.message}` };
  }
}

const damagedIndex = damagedIndexMet(b.mode === 'serve', log, ' (notes are embedded without the vector cache meanwhile)');

/**
 * The index's vectors for these chunk hashes. A damaged page of the index file met here, while serving, has main
 * rebuild it (built beside, swapped in: main then has this actor follow the new file) and the note embedded whole
 * meanwhile — where the embedder crashed on every note it looked up until the swap, a restart each, and a burst of
 * edits during a large vault's minutes-long rebuild could exceed its supervisor's restart intensity. A one-shot run
 * (itself a build) crashes as before.
 */
function cachedVectors(ctx: ActorCtx<Sends<'embedder'>, State, Asks<'embedder'>>, hashes: string[]): Map<string, Float32Array> {
  try {
    return ctx.state.index.reader.vectorsByChunkHash(hashes);
  } catch (err) {
    if (!damagedIndex(err, () => ctx.request({ type: 'main.reindex' }, null), { actor: 'embedder' })) throw err;
    return new Map();
  }
}

/** Called by the first note to arrive: the pool's model must load now. */
let needed = (): void => {};

/**
 * Resolves when the first note arrives or the boot reconcile is done, whichever is first. A restart over an
 * unchanged vault embeds nothing, and loading a model session per pool thread would take both cores from the
 * start-up's critical path (thread start-up and the reconcile), so the model loads just after it.
 */
function neededOrReconciled(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(() => board.get('reconciledAt') > 0 && done(), 50);
    needed = done;
    if (board.get('reconciledAt') > 0) done();
  });
}

runActor<EmbedderMsg, Sends<'embedder'>, State, Asks<'embedder'>>(
  async (msg, ctx) => {
    switch (msg.type) {
      case 'embedder.embed_note': {
        needed();
        const { note } = msg;
        const s = await poolReady(ctx);
        if (!s.batcher) {
          ctx.emit({
            type: 'store.upsert',
            note: { ...note, chunks: note.chunks.map((c) => ({ ...c, vector: null })) },
            mtimeMs: msg.mtimeMs,
            size: msg.size,
            model: null,
          });
          return;
        }
        const known = cachedVectors(
          ctx,
          note.chunks.map((c) => c.hash),
        );
        const missing = note.chunks.filter((c) => !known.has(c.hash));
        reused.inc(note.chunks.length - missing.length);
        queueDepth.set(s.batcher.queued + missing.length);
        const fresh = await whileWaiting(ctx.progress, s.batcher.embed(missing.map((c) => c.content)));
        queueDepth.set(s.batcher.queued);
        const byHash = new Map(missing.map((c, i) => [c.hash, fresh[i]!]));
        const chunks = note.chunks.map((c) => ({ ...c, vector: known.get(c.hash) ?? byHash.get(c.hash) ?? null }));
        ctx.emit({ type: 'store.upsert', note: { ...note, chunks }, mtimeMs: msg.mtimeMs, size: msg.size, model: s.model });
        return;
      }
      case 'embedder.index_swapped':
        ctx.state.index.follow();
        ctx.reply({ reopened: true });
        return;
      default:
        assertNever(msg);
    }
  },
  () => {
    board.set('embedderState', stateCode(EMBEDDER_STATES, 'starting'));
    const started = performance.now();
    const index = new SwappedReader(b.dbFile, board, { userId: cfg.user_id, cacheMiB: 4 });
    const pool = neededOrReconciled()
      .then(startPool)
      .then((r) => {
        if ('error' in r) {
          board.set('embedderState', stateCode(EMBEDDER_STATES, 'unavailable'));
          log.event(
            'embedder_unavailable',
            { provider: settings.kind, reason: r.error },
            'embedding provider could not start: indexing keyword-only',
          );
          return { model: null, batcher: null };
        }
        board.set('embedderState', stateCode(EMBEDDER_STATES, 'ready'));
        log.event('embedder_ready', { model: r.model, threads: cfg.embedder.threads, ms: Math.round(performance.now() - started) });
        return { model: r.model, batcher: r.batcher };
      });
    return { pool, index };
  },
  { concurrency: ACTORS.embedder.concurrency },
);
