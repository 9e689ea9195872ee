// The daemon's main thread: prepares the data dir, spawns the actors, routes their messages by type, runs the
// supervision tree, merges every thread's metrics, and shuts down in order (drain the pipeline, then stop).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync, renameSync } from 'node:fs';
import path from 'node:path';
import { AggregatorRegistry, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Config } from '../config/load.js';
import { Board } from '../actors/common/board.js';
import { indexFile, type ActorBoot } from '../actors/common/boot.js';
import type { EventLogger } from '../actors/common/log.js';
import { spawnActor, type ActorHandle } from '../actors/runtime/host.js';
import { openIndex } from '../actors/store-writer/schema.js';
import { destinationOf, type AnyMsg, type ActorName } from '../messages/index.js';
import type { ActorEvent } from '../messages/actor.js';
import type { MainMsg } from '../messages/to-main.js';
import type { SupervisorEvent } from './events.js';
import { assertNever } from '../messages/common.js';
import { startSupervisor, type Supervisor } from './supervisor.js';
import { rootTree, type ActorHandles } from './trees.js';
import { buildNextIndex } from './reindex.js';
import { monotonicMs } from './clock.js';
import { VaultWatch } from './vault-watch.js';
import { EmbedPools } from './embed-pools.js';

export interface DaemonOptions {
  mode: 'serve' | 'oneshot';
  log: EventLogger;
  logToStderr?: boolean;
  /** Index file to build (reindex builds a new one beside the live one); default `<data dir>/index.sqlite`. */
  dbFile?: string;
}

type RoutedActor = Exclude<ActorName, 'main'>;
const ACTOR_FILES: Record<RoutedActor, string> = {
  store: '../actors/store-writer/actor.js',
  embedder: '../actors/embedder/actor.js',
  chunker: '../actors/chunker/actor.js',
  watcher: '../actors/watcher/actor.js',
  gateway: '../actors/gateway/actor.js',
  git: '../actors/git-writer/actor.js',
};

/** Creates `<data dir>/token` (0600) on first start; returns the token. */
export function ensureToken(dataDir: string): string {
  const file = path.join(dataDir, 'token');
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, randomBytes(32).toString('base64url') + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  }
  chmodSync(file, 0o600);
  return readFileSync(file, 'utf8').trim();
}

export function prepareDataDir(cfg: Config, dbFile = indexFile(cfg)): { dbFile: string; token: string } {
  mkdirSync(cfg.data_dir, { recursive: true, mode: 0o700 });
  const token = ensureToken(cfg.data_dir);
  openIndex(dbFile, { readonly: false }).close(); // creates and migrates the schema before any reader opens it
  return { dbFile, token };
}

export class Daemon {
  readonly board = new Board();
  readonly handles: Partial<Record<RoutedActor, ActorHandle<unknown>>> = {};
  readonly registry = new Registry();
  root: Supervisor | null = null;
  readonly pools: EmbedPools;
  readonly #cfg: Config;
  readonly #o: DaemonOptions;
  readonly #restarts: Counter<'actor' | 'reason'>;
  #stopping = false;
  readonly #lastExit = new Map<string, string>();
  #watch: VaultWatch | null = null;
  #watcherState = { pending: -1, reconciled: false };
  #stateWaiters: Array<() => void> = [];
  #swapWaiters = new Map<number, () => void>();

  constructor(cfg: Config, opts: DaemonOptions) {
    this.#cfg = cfg;
    this.#o = opts;
    this.pools = new EmbedPools(cfg.embedder.threads);
    this.#restarts = new Counter({
      name: 'memvault_actor_restarts_total',
      help: 'Actor restarts by actor and the reason it exited',
      labelNames: ['actor', 'reason'],
      registers: [this.registry],
    });
    const board = this.board;
    const handles = this.handles;
    new Gauge({
      name: 'memvault_mailbox_depth',
      help: 'Messages queued or in flight per actor',
      labelNames: ['actor'],
      registers: [this.registry],
      collect() {
        for (const [id, h] of Object.entries(handles)) if (h) this.set({ actor: id }, h.depth());
      },
    });
    new Gauge({ name: 'memvault_pending_files', help: 'Files that differ from the index and are not yet done', registers: [this.registry], collect() { this.set(board.get('pending')); } });
    new Gauge({
      name: 'memvault_index_lag_seconds',
      help: 'Age of the oldest pending file (0 when caught up)',
      registers: [this.registry],
      collect() {
        const t = board.get('oldestPendingAt');
        this.set(t > 0 ? Math.max(0, (monotonicMs() - t) / 1000) : 0); // the watcher stamps it with monotonicMs
      },
    });
  }

  async start(): Promise<void> {
    const cfg = this.#cfg;
    const { dbFile } = prepareDataDir(cfg, this.#o.dbFile);
    const names: RoutedActor[] = ['store', 'embedder', 'chunker', 'watcher'];
    if (this.#o.mode === 'serve') names.push('gateway');
    if (this.#o.mode === 'serve' && cfg.writes.enabled) names.push('git');
    else this.board.set('gitState', 5); // writes are off: the gateway says so rather than "starting"
    for (const actor of names) {
      const workerData: ActorBoot = { actor, config: cfg, board: this.board.buffer, dbFile, mode: this.#o.mode, logToStderr: this.#o.logToStderr ?? false };
      this.handles[actor] = spawnActor<unknown, AnyMsg>({
        id: actor,
        file: new URL(ACTOR_FILES[actor], import.meta.url),
        workerData,
        window: actor === 'embedder' ? 64 : 8,
        // a hung actor is restarted; the embedder's batches can legitimately take seconds on a loaded machine
        ...(cfg.supervisor.stall_ms > 0 ? { stallMs: cfg.supervisor.stall_ms * (actor === 'embedder' ? 2 : 1) } : {}),
        ...(actor === 'embedder' || actor === 'gateway' ? { channel: () => this.pools.channel() } : {}),
        onMessage: (msg) => this.#route(msg),
        events: (e) => this.#actorEvent(e),
      });
    }
    if (this.#o.mode === 'serve') {
      this.#watch = new VaultWatch({
        vault: cfg.vault,
        dbFile,
        ignore: cfg.watcher.ignore,
        board: this.board,
        log: this.#o.log,
        route: (m) => this.#route(m),
        git: () => this.handles.git !== undefined,
        swapping: () => this.#swapWaiters.size > 0,
      });
      await this.#watch.start();
    }
    const h = this.handles;
    const tree = rootTree(cfg, { store: h.store!, embedder: h.embedder!, chunker: h.chunker!, watcher: h.watcher!, gateway: h.gateway, git: h.git } satisfies ActorHandles);
    this.root = await startSupervisor(tree, { events: (e) => this.#supervisorEvent(e) });
  }

  readonly #listeners = new Set<(msg: AnyMsg) => void>();

  /** Observe every message main routes (tests await `watcher.done` for a path; chaos runs count outcomes). */
  onRouted(listener: (msg: AnyMsg) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the next `watcher.done` for `path` (optionally one matching `outcome`). */
  nextDone(path: string, outcome?: string): Promise<Extract<AnyMsg, { type: 'watcher.done' }>> {
    return new Promise((resolve) => {
      const off = this.onRouted((m) => {
        if (m.type === 'watcher.done' && m.path === path && (!outcome || m.outcome === outcome)) {
          off();
          resolve(m);
        }
      });
    });
  }

  #route(msg: AnyMsg): void {
    for (const l of this.#listeners) l(msg);
    const dest = destinationOf(msg);
    if (dest === 'main') {
      void this.#handleMain(msg as MainMsg);
      return;
    }
    if (msg.type === 'watcher.done' && msg.outcome !== 'failed' && this.handles.gateway)
      // read-your-writes: the gateway learns when a path's new content (or its absence) is indexed
      this.handles.gateway.send({ type: 'gateway.indexed', path: msg.path, contentHash: msg.state?.contentHash ?? null });
    const h = this.handles[dest];
    if (!h) return; // e.g. the gateway in one-shot mode
    if (!h.send(msg)) {
      // mailbox full: hold the message and resend when it drains (the watcher's admission keeps this rare)
      void h.onDrain().then(() => this.#route(msg));
    }
  }

  async #handleMain(msg: MainMsg): Promise<void> {
    switch (msg.type) {
      case 'main.metrics_request': {
        const m = await this.metricsText();
        this.handles.gateway?.send({ type: 'gateway.metrics', requestId: msg.requestId, ...m });
        return;
      }
      case 'main.watcher_state': {
        this.#watcherState = { pending: msg.pending, reconciled: msg.reconciled };
        const w = this.#stateWaiters;
        this.#stateWaiters = [];
        for (const f of w) f();
        return;
      }
      case 'main.reindex_request': {
        try {
          const built = await buildNextIndex(this.#cfg, this.#o.log);
          await new Promise<void>((resolve) => {
            this.#swapWaiters.set(msg.requestId, resolve);
            this.#route({ type: 'store.swap_index', next: built.file, requestId: msg.requestId });
          });
          this.handles.gateway?.send({ type: 'gateway.reindexed', requestId: msg.requestId, ok: true, documents: built.documents, ms: built.ms, error: null });
        } catch (err) {
          this.handles.gateway?.send({ type: 'gateway.reindexed', requestId: msg.requestId, ok: false, documents: 0, ms: 0, error: String((err as Error).message) });
        }
        return;
      }
      case 'main.committed':
        return; // observers get it through onRouted
      case 'main.index_swapped': {
        this.#watch?.indexSwapped();
        this.#swapWaiters.get(msg.requestId)?.();
        this.#swapWaiters.delete(msg.requestId);
        return;
      }
      default:
        assertNever(msg);
    }
  }

  /** Prometheus text of every thread's registry, merged (counters summed, gauges summed per label set). */
  async metricsText(): Promise<{ text: string; contentType: string }> {
    const all: MetricObjectWithValues<MetricValue<string>>[][] = [await this.registry.getMetricsAsJSON()];
    const results = await Promise.allSettled(Object.values(this.handles).map((h) => h!.metrics(2_000)));
    for (const r of results) if (r.status === 'fulfilled') all.push(r.value);
    const merged = AggregatorRegistry.aggregate(all);
    return { text: await merged.metrics(), contentType: merged.contentType };
  }

  #actorEvent(e: ActorEvent): void {
    const log = this.#o.log;
    switch (e.type) {
      case 'actor.poison': {
        log.event('message_poisoned', { actor: e.actor, attempts: e.attempts, error: e.error.message, msg: summarise(e.msg) });
        const p = (e.msg as { path?: unknown; note?: { path?: unknown } } | null) ?? {};
        const notePath = typeof p.path === 'string' ? p.path : typeof p.note?.path === 'string' ? p.note.path : null;
        // the path must still finish, or the watcher would hold it in flight forever
        if (notePath && e.actor !== 'store')
          this.#route({ type: 'store.file_failed', path: notePath as never, reason: 'crashed', message: `the ${e.actor} crashed ${e.attempts} times on this note: ${e.error.message}` });
        return;
      }
      case 'actor.redelivered':
        log.info({ event: 'actor_restarted', actor: e.actor, redelivered: e.count }, 'unacknowledged messages redelivered');
        return;
      case 'actor.mailbox_full':
      case 'actor.drained':
        log.debug({ event: e.type, actor: e.actor, depth: e.depth }, e.type);
        return;
      case 'actor.undeliverable':
        log.error({ event: 'message_poisoned', actor: e.actor, error: e.error.message }, 'a message could not be copied to the worker');
        return;
      case 'actor.log':
        log[e.level]({ actor: e.actor, ...e.fields }, e.msg);
        return;
      default:
        assertNever(e);
    }
  }

  readonly #supListeners = new Set<(e: SupervisorEvent) => void>();

  /** Observe supervision events (tests await a restart; chaos runs time fault → serving). */
  onSupervisor(listener: (e: SupervisorEvent) => void): () => void {
    this.#supListeners.add(listener);
    return () => this.#supListeners.delete(listener);
  }

  #supervisorEvent(e: SupervisorEvent): void {
    for (const l of this.#supListeners) l(e);
    const log = this.#o.log;
    switch (e.type) {
      case 'supervisor.child_exited':
        if (!e.expected) {
          this.#lastExit.set(e.child, e.exit.kind === 'crash' ? e.exit.error.kind : e.exit.kind);
          log.warn({ event: 'actor_exited', supervisor: e.supervisor, actor: e.child, exit: e.exit }, `${e.child} exited`);
        }
        return;
      case 'supervisor.child_restarted':
        // the reason is how it went down (crash kind, killed, …); siblings restarted with it say `sibling`
        this.#restarts.inc({ actor: e.child, reason: this.#lastExit.get(e.child) ?? 'sibling' });
        this.#lastExit.delete(e.child);
        log.event('actor_restarted', { supervisor: e.supervisor, actor: e.child, restarts: e.restarts, delay_ms: e.delayMs });
        return;
      case 'supervisor.escalated':
        log.error({ event: 'actor_escalated', supervisor: e.supervisor, actor: e.child, restarts: e.restarts, period_ms: e.periodMs }, 'restart intensity exceeded');
        return;
      case 'supervisor.child_started':
        log.debug({ event: 'actor_started', supervisor: e.supervisor, actor: e.child, restarts: e.restarts }, 'started');
        return;
      default:
        log.debug({ event: e.type, ...e }, e.type);
    }
  }

  /** Resolves when the boot reconcile is done and nothing is pending or queued anywhere. */
  async whenCaughtUp(): Promise<void> {
    for (;;) {
      const s = this.#watcherState;
      if (s.reconciled && s.pending === 0) {
        const ingest = (['chunker', 'embedder', 'store'] as const).map((a) => this.handles[a]);
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
    const ingest = (['chunker', 'embedder', 'store'] as const).map((a) => this.handles[a]).filter((x) => x !== undefined);
    await Promise.race([Promise.all(ingest.map((x) => x.onIdle())), new Promise((r) => setTimeout(r, drainMs).unref())]);
    await this.#watch?.stop();
    this.#watch = null;
    await this.root.stop(reason);
    await this.pools.destroy(); // after the actors: no inference is running when its threads go
    this.#o.log.event('daemon_stopped', { reason });
  }
}

function summarise(msg: unknown): unknown {
  if (msg && typeof msg === 'object' && 'type' in msg) {
    const m = msg as { type: string; path?: unknown; note?: { path?: unknown } };
    return { type: m.type, path: m.path ?? m.note?.path };
  }
  return typeof msg;
}
