// The daemon's main thread, assembled: prepares the data dir, spawns the actors of the table (supervisors/actors.ts),
// routes their messages (router.ts), runs the supervision tree, answers what only main can (merged metrics, a
// reindex), and shuts down in order (drain the pipeline, then stop the children in reverse).
import { existsSync } from 'node:fs';
import { type Config, ConfigError } from '../config/load.js';
import { loadTemplates } from '../actors/scheduler/templates/engine.js';
import { assertNever, type MetricsText, type ReindexResult } from '../messages/index.js';
import type { WireError } from '../messages/common.js';
import { ACTORS, ACTOR_NAMES, workerFile, type RoutedActor } from '../supervisors/actors.js';
import type { SupervisorEvent } from '../supervisors/events.js';
import { startSupervisor, type Supervisor } from '../supervisors/supervisor.js';
import { rootTree, type ActorHandles } from '../supervisors/trees.js';
import { Board } from '../supervisors/runtime/board.js';
import type { ActorBoot } from '../supervisors/runtime/boot.js';
import { spawnActor } from '../supervisors/runtime/host.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import { ActorEvents } from './actor-events.js';
import { rebuildOnce } from '../actors/store-writer/damage-rebuild.js';
import { prepareDataDir } from './data-dir.js';
import { DaemonStartFailure } from './start-failure.js';
import { EmbedPools, WORKER_YOUNG_MB } from './embed-pools.js';
import { providerSettings } from '../actors/embedder/factory.js';
import { MainMetrics } from './metrics.js';
import { connectPeers } from './peer-links.js';
import { checkpointIndex } from '../actors/store-writer/swap.js';
import { buildNextIndex, holdingNextIndex, removeLeftoverNextIndex } from './reindex.js';
import { Router, type MainNotice, type MainRequest } from './router.js';
import { SpawnerHost } from './spawner-host.js';
import { VaultWatch } from './vault-watch.js';
import { operatorMetrics } from './operator-metrics.js';
import { supervisionTree } from './supervision.js';
import { memoryPaths } from '../actors/memory/paths.js';
import { subscriptionIgnore } from '../actors/git-writer/persons-notes.js';
import { applyHeapSettings } from './heap-settings.js';

export interface DaemonOptions {
  mode: 'serve' | 'oneshot';
  log: EventLogger;
  /** Index file to build (reindex builds a new one beside the live one); default `<data dir>/index.sqlite`. */
  dbFile?: string;
  /** The actors' stderr level, a one-shot command's (log.ts ONE_SHOT_STDERR); default the configured level. */
  stderrLevel?: string;
}

/** The actors that feed the index: caught up when all of them are idle. */
const INGEST = ACTOR_NAMES.filter((a) => ACTORS[a].tree === 'ingest');

/** How long main waits for a reader to let go of a replaced index file before answering a reindex. */
const FOLLOW_SWAP_MS = 10_000;

export class Daemon {
  readonly board = new Board();
  readonly handles: ActorHandles = {};
  readonly pools: EmbedPools;
  readonly metrics: MainMetrics;
  readonly router: Router;
  /** The process that runs git for every actor (forked once the ingest pipeline has started, ended after the actors). */
  readonly spawner: SpawnerHost;
  root: Supervisor | null = null;
  readonly #cfg: Config;
  readonly #o: DaemonOptions;
  readonly #events: ActorEvents;
  readonly #supListeners = new Set<(e: SupervisorEvent) => void>();
  #stopping = false;
  #watch: VaultWatch | null = null;
  #watcherState = { pending: -1, reconciled: false };
  #memoryState = { pending: -1, replaying: true };
  #stateWaiters: Array<() => void> = [];
  #swapping = 0;
  /** The index file the actors open, known once start has prepared the data dir. */
  #dbFile: string | null = null;

  constructor(cfg: Config, opts: DaemonOptions) {
    this.#cfg = cfg;
    this.#o = opts;
    this.pools = new EmbedPools(cfg.embedder.threads, cfg.embedder.nice, { releaseAfterMs: cfg.embedder.release_after_ms });
    this.spawner = new SpawnerHost(opts.log);
    this.metrics = new MainMetrics(this.board, this.handles);
    operatorMetrics(this.metrics.registry, this.board, { vault: cfg.vault, dataDir: cfg.data_dir });
    this.router = new Router({ handles: this.handles, log: opts.log, notice: (m) => this.#notice(m), answer: (m) => this.#answer(m) });
    this.#events = new ActorEvents(opts.log, this.metrics, this.router, (actor, err) => this.#damaged(actor, err));
  }

  /**
   * An actor went down on a damaged page of the index file (the embedder's vector cache, the memory actor's reads…):
   * the index is rebuilt as the gateway and the store writer have it rebuilt when they meet one — where any other
   * actor crashed on it until a search or a write happened to start the rebuild. Not while starting (the start is
   * made again over a fresh file: start-over-damage.ts) or stopping, nor in a one-shot run (itself a build).
   */
  #damaged(actor: string, err: WireError): void {
    if (this.#o.mode !== 'serve' || !this.root || this.#stopping || this.#reindexing !== null) return;
    this.#o.log.error({ event: 'index_damaged', actor, err: err.message }, 'the index file is damaged; rebuilding it');
    this.#rebuildDamaged ??= rebuildOnce(() => this.#reindex(), this.#o.log);
    this.#rebuildDamaged();
  }

  #rebuildDamaged: (() => boolean) | null = null;

  /** The actors this daemon runs: every one in `memvault start` (the git writer when writes are on), the ingest ones in a one-shot index. */
  #actors(): RoutedActor[] {
    const serve = this.#o.mode === 'serve';
    return ACTOR_NAMES.filter((a) => (serve || ACTORS[a].oneshot) && (!ACTORS[a].needsWrites || (serve && this.#cfg.writes.enabled)));
  }

  /**
   * Starts the actors and the supervision tree. A start that fails (an actor's init throws, the gateway's address is
   * taken) ends what it had started and rejects with a DaemonStartFailure naming the actor and its reason code.
   */
  async start(): Promise<void> {
    const cfg = this.#cfg;
    if (this.#actors().includes('scheduler')) {
      // a broken template override is a config error now, naming its file and line — not a failed note at night
      const t = loadTemplates(cfg);
      if (t.problems.length) throw new ConfigError(cfg.config_file, t.problems);
    }
    const { dbFile, damaged } = prepareDataDir(cfg, this.#o.dbFile);
    this.#dbFile = dbFile;
    if (damaged !== null)
      this.#o.log.warn(
        { event: 'index_file_damaged', kept_as: damaged },
        `the index file could not be read (kept as ${damaged}); rebuilding it from the vault and the episode journal`,
      );
    if (this.#o.mode === 'serve') removeLeftoverNextIndex(cfg, this.#o.log); // a killed reindex's half-built file
    applyHeapSettings(cfg.heap); // before the first thread: its isolate reads the flags as it is made
    const names = this.#actors();
    for (const actor of names) {
      const spec = ACTORS[actor];
      const workerData: ActorBoot = {
        actor,
        config: cfg,
        board: this.board.buffer,
        dbFile,
        mode: this.#o.mode,
        spawner: this.spawner.address,
        ...(this.#o.stderrLevel ? { stderrLevel: this.#o.stderrLevel } : {}),
      };
      this.handles[actor] = spawnActor<unknown, never>({
        id: actor,
        file: workerFile(actor),
        workerData,
        window: spec.window,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
        // a hung actor is restarted (stall_ms 0 turns the watchdog off)
        ...(cfg.supervisor.stall_ms > 0 ? { stallMs: cfg.supervisor.stall_ms * spec.stall } : {}),
        ...(spec.pools ? { channel: () => this.pools.channel() } : {}),
        onMessage: (msg) => this.router.route(msg, actor),
        onRequest: (msg, _from, timeoutMs) => this.router.request(msg, actor, timeoutMs),
        onDirect: (msg) => this.router.observed(msg),
        events: (e) => this.#events.actor(e),
      });
    }
    // the query model starts loading now, beside the gateway's thread: a hybrid search after a restart waits for it
    if (this.handles.gateway) void this.pools.run('query', { settings: providerSettings(cfg), texts: ['memvault'] });
    // The gateway's thread loads first, alone: after a restart it answers from the index as soon as it is up. Every
    // other actor's thread starts loading its modules the moment the gateway is up, all in parallel, while the
    // supervisors still init them one after another, in their order (a one-shot has no gateway: all at once).
    let warmed = false;
    const prewarmRest = (): void => {
      if (warmed) return;
      warmed = true;
      for (const actor of names) this.handles[actor]?.prewarm();
    };
    if (this.handles.gateway) this.handles.gateway.prewarm();
    else prewarmRest();
    if (this.#o.mode === 'serve') {
      this.#watch = new VaultWatch({
        vault: cfg.vault,
        dbFile,
        ignore: subscriptionIgnore(cfg.watcher.ignore, cfg.vault, cfg.data_dir),
        isMemoryFile: memoryPaths(cfg.memory.folder).isMemoryFile,
        board: this.board,
        log: this.#o.log,
        route: (m) => this.router.route(m, 'main'),
        git: () => this.handles.git !== undefined,
        swapping: () => this.#swapping > 0,
      });
      await this.#watch.start();
    }
    let startFailed: { child: string; error: WireError } | null = null;
    try {
      this.root = await startSupervisor(rootTree(cfg, this.handles), {
        events: (e) => {
          if (e.type === 'supervisor.child_started' && e.child === 'gateway') prewarmRest();
          // the spawner boots beside the git writer's start, not the pipeline's (an actor asking before connects again)
          if (e.type === 'supervisor.child_started' && e.child === 'ingest') this.spawner.start();
          if (e.type === 'supervisor.child_started') connectPeers(this.handles, e.child);
          // the first is the innermost: a nested supervisor reports its own child before failing its parent's start
          if (e.type === 'supervisor.child_start_failed') startFailed ??= { child: e.child, error: e.error };
          for (const l of this.#supListeners) l(e);
          this.#events.supervisor(e);
        },
      });
      this.spawner.start(); // no-op once the pipeline started it; a tree without an ingest child still gets one
    } catch (err) {
      // the supervisor stopped the children it had started; what main started beside them would keep the process
      // alive (the watch's inotify thread, the query model's pool thread): end those too
      await this.#watch?.stop();
      this.#watch = null;
      await this.pools.destroy();
      const failed = startFailed as { child: string; error: WireError } | null;
      throw failed ? new DaemonStartFailure(failed.child, failed.error.kind, failed.error.message) : err;
    } finally {
      // a start that failed part-way leaves the later actors parked: end their threads
      await Promise.all(names.map((a) => this.handles[a]?.discardWarm()));
      if (!this.root) await this.spawner.stop();
    }
  }

  /** Observe every message main routes (tests await `watcher.done` for a path; chaos runs count outcomes). */
  onRouted(listener: Parameters<Router['onRouted']>[0]): () => void {
    return this.router.onRouted(listener);
  }

  /** Resolves with the next `watcher.done` for `path` (optionally one matching `outcome`). */
  nextDone(path: string, outcome?: string): Promise<Extract<Parameters<Parameters<Router['onRouted']>[0]>[0], { type: 'watcher.done' }>> {
    return new Promise((resolve) => {
      const off = this.onRouted((m) => {
        if (m.type === 'watcher.done' && m.path === path && (!outcome || m.outcome === outcome)) {
          off();
          resolve(m);
        }
      });
    });
  }

  /** Observe supervision events (tests await a restart; chaos runs time fault → serving). */
  onSupervisor(listener: (e: SupervisorEvent) => void): () => void {
    this.#supListeners.add(listener);
    return () => this.#supListeners.delete(listener);
  }

  #notice(msg: MainNotice): void {
    switch (msg.type) {
      case 'main.watcher_state': {
        this.#watcherState = { pending: msg.pending, reconciled: msg.reconciled };
        const w = this.#stateWaiters;
        this.#stateWaiters = [];
        for (const f of w) f();
        return;
      }
      case 'main.memory_state': {
        this.#memoryState = { pending: msg.pending, replaying: msg.replaying };
        const w = this.#stateWaiters;
        this.#stateWaiters = [];
        for (const f of w) f();
        return;
      }
      case 'main.committed':
        return; // observers get it through onRouted
      default:
        assertNever(msg);
    }
  }

  #answer(msg: MainRequest): Promise<MetricsText | ReindexResult | ReturnType<typeof supervisionTree>> {
    switch (msg.type) {
      case 'main.metrics':
        return this.metricsText();
      case 'main.reindex':
        return this.#reindex();
      case 'main.supervision':
        return Promise.resolve(supervisionTree(this.root, this.handles));
      default:
        return assertNever(msg);
    }
  }

  /** The reindex under way: a second request joins it (both would build into the same index.next.sqlite). */
  #reindexing: Promise<ReindexResult> | null = null;

  /**
   * Builds a new index with a one-shot pipeline while this one serves, then has the store writer swap it in. A request
   * that arrives while one runs shares its answer: a second build deleted the first's half-built file, and the first
   * then swapped in the file the second was still writing (a partial index, then a wedged store and gateway).
   */
  #reindex(): Promise<ReindexResult> {
    if (this.#reindexing === null) {
      this.#reindexing = this.#reindexNow().finally(() => {
        this.#reindexing = null;
      });
      for (const l of this.#reindexWaiters.splice(0)) l(this.#reindexing);
    }
    return this.#reindexing;
  }

  #reindexWaiters: Array<(r: Promise<ReindexResult>) => void> = [];

  /** The result of the reindex under way, or of the next one asked for (tests: a rebuild the gateway asked for). */
  nextReindex(): Promise<ReindexResult> {
    return this.#reindexing ?? new Promise((resolve) => this.#reindexWaiters.push(resolve));
  }

  async #reindexNow(): Promise<ReindexResult> {
    try {
      // the claim on index.next.sqlite (main/pid-claim.ts) from the build to the swap, as a reindex without a daemon holds it
      return await holdingNextIndex(this.#cfg, async () => {
        const built = await buildNextIndex(this.#cfg, this.#o.log, (file) => indexOnce(this.#cfg, this.#o.log, file));
        this.#swapping++;
        try {
          await this.router.request({ type: 'store.swap_index', next: built.file }, 'main', null);
          await this.#followSwap();
          this.#watch?.indexSwapped();
        } finally {
          this.#swapping--;
        }
        return { ok: true, documents: built.documents, ms: built.ms, error: null };
      });
    } catch (err) {
      return { ok: false, documents: 0, ms: 0, error: String((err as Error).message) };
    }
  }

  /**
   * Has the actors that read the index keep no connection to the file a swap replaced: each reopened at its next read
   * only, and while one (an idle scheduler, say) held the old file, SQLite kept every descriptor of it open — the old
   * index, hundreds of MB at 100k chunks, stayed on disk, deleted. The memory actor reopens on the store's rescan.
   * An actor that does not answer in time (busy, restarting) reopens at its next read, as before.
   */
  async #followSwap(): Promise<void> {
    const asks = (['gateway', 'embedder', 'scheduler'] as const)
      .filter((a) => this.handles[a])
      .map((a) => this.router.request({ type: `${a}.index_swapped` }, 'main', FOLLOW_SWAP_MS).catch(() => null));
    await Promise.all(asks);
  }

  /** Prometheus text of every thread's registry, merged. */
  metricsText(): Promise<MetricsText> {
    return this.metrics.text(this.handles);
  }

  /** Resolves when the boot reconcile is done and nothing is pending or queued anywhere. */
  async whenCaughtUp(): Promise<void> {
    for (;;) {
      const s = this.#watcherState;
      const m = this.#memoryState;
      const memoryDone = !this.handles.memory || (!m.replaying && m.pending === 0);
      if (s.reconciled && s.pending === 0 && memoryDone) {
        const ingest = INGEST.map((a) => this.handles[a]);
        if (ingest.every((x) => !x || x.depth() === 0)) return;
        await Promise.all(ingest.map((x) => x?.onIdle()));
        continue;
      }
      await new Promise<void>((r) => this.#stateWaiters.push(r));
    }
  }

  /** Graceful: stop taking requests, let the pipeline drain (bounded), then stop children in reverse order. */
  async stop(reason: string, drainMs = 5_000): Promise<void> {
    if (this.#stopping || !this.root) return;
    this.#stopping = true;
    this.#o.log.event('daemon_stopping', { reason });
    const ingest = INGEST.map((a) => this.handles[a]).filter((x) => x !== undefined);
    await Promise.race([Promise.all(ingest.map((x) => x.onIdle())), new Promise((r) => setTimeout(r, drainMs).unref())]);
    await this.#watch?.stop();
    this.#watch = null;
    await this.root.stop(reason);
    this.#checkpoint();
    await this.pools.destroy(); // after the actors: no inference is running when its threads go
    await this.spawner.stop(); // after the actors: no git of theirs is still asked for
    this.#o.log.event('daemon_stopped', { reason });
  }

  /**
   * The actors' connections are closed: fold the WAL into the index file, so a clean stop leaves no WAL beside it (the
   * readers close after the store writer, and the last connection, read-only, could not). A failure loses nothing:
   * the WAL stays and the next open reads it.
   */
  #checkpoint(): void {
    if (!this.#dbFile || !existsSync(this.#dbFile)) return;
    try {
      checkpointIndex(this.#dbFile);
    } catch (err) {
      this.#o.log.warn({ event: 'index_checkpoint_failed', detail: (err as Error).message }, 'the WAL stays beside the index');
    }
  }
}

/** Indexes the vault once into `file` with the ingest actors only (`memvault index`, and reindex's new file). */
export async function indexOnce(cfg: Config, log: EventLogger, file: string, stderrLevel?: string): Promise<void> {
  const d = new Daemon(cfg, { mode: 'oneshot', log, dbFile: file, ...(stderrLevel ? { stderrLevel } : {}) });
  await d.start();
  await d.whenCaughtUp();
  await d.stop('reindex built', 0);
}
