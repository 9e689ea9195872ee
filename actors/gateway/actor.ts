// The gateway actor (worker thread): the HTTP listener agents and the CLI call; reads the index read-only and
// embeds queries in main's one-thread query pool so searches never queue behind bulk indexing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { assertNever, SOURCE_VAULT } from '../../messages/common.js';
import type { GatewayMsg } from '../../messages/to-gateway.js';
import type { Asks, Sends } from '../../supervisors/actors.js';
import { IndexWaiter, MessageWriteBackend, WRITE_TIMEOUT_MS } from './write-backend.js';
import { coveredFilter, coveredPath } from '../dream/covered-file.js';
import { splitListen } from '../../config/listen.js';
import { modelBusy, providerSettings } from '../embedder/factory.js';
import { poolClient, remoteQueryProvider } from '../embedder/pool-api.js';
import { createHttpServer } from './http-server.js';
import { Sessions } from './page/session.js';
import { indexDamage } from './index-damage.js';
import { configuredLimits, IndexView } from './index-view.js';
import { gatewayMetrics } from './metrics.js';
import { retriever } from './retrieval.js';
import { VERSION } from '../../supervisors/runtime/version.js';
import { ToolGateway } from './tools/gateway.js';
import { toolLimits } from './tools/deps.js';
import { toolMetrics } from './tools/metrics.js';
import { llmStatus } from './llm-status.js';
import { gitStatus } from '../git-writer/index-lock.js';
import { askSupervision } from './supervision-status.js';
import { requestBackend } from './episodes-http.js';
import { RecallLog } from './recall-log.js';
import { FACT_KEY } from './tools/memory-tools.js';
import { undoRunIndexed } from './dream-undo.js';
import { memoryPaths } from '../memory/paths.js';
import { agentsGate } from './agents/wiring.js';

const { b, board, log } = boot();
const cfg = b.config;

interface State {
  server: Server;
  view: IndexView;
  indexWaiter: IndexWaiter;
}

/** How long after listening the gateway loads the MCP SDK in the background (the first /mcp request loads it sooner). */
const WARM_AFTER_MS = 1_000;
/** Merging every thread's metrics answers in milliseconds; a scrape should not hang on a wedged thread. */
const METRICS_TIMEOUT_MS = 5_000;
/** main answers from memory at once; /v1/status should not wait long on a main thread that is busy. */
const SUPERVISION_TIMEOUT_MS = 2_000;
/** Listing jobs is instant; a run makes LLM calls (each up to llm.timeout_s, with retries) and commits. */
const JOBS_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 30 * 60_000;

runActor<GatewayMsg, Sends<'gateway'>, State, Asks<'gateway'>>(
  (msg, ctx) => {
    switch (msg.type) {
      case 'gateway.indexed':
        ctx.state.indexWaiter.onIndexed(msg.path, msg.contentHash);
        return;
      case 'gateway.index_swapped':
        ctx.state.view.followSwap();
        ctx.reply({ reopened: true });
        return;
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    const view = new IndexView(b.dbFile, board, {
      ...configuredLimits(cfg),
      covered: coveredFilter(coveredPath(cfg.data_dir), cfg.user_id),
    });
    // listen at once, the query model loading beside it (~0.5 s): keyword search answers meanwhile, and a search
    // that needs vectors waits for the model (up to 10 s) rather than degrade — a restarted gateway serves within ms
    // the model runs in main's one-thread `query` pool, not here: a gateway restart never kills a thread inside
    // onnxruntime, and the restarted gateway finds the model loaded
    if (!b.port) throw new Error("the gateway needs workerData.port to main's embedding pools");
    const settings = providerSettings(cfg);
    view.providerBusy = () => modelBusy(settings); // a hub model downloading at first use: do not make searches wait for it
    view.providerSettled = remoteQueryProvider(poolClient(b.port), settings).then(
      (provider) => {
        view.provider = { state: 'ready', provider };
        // the vector pass's bits into memory before the searches that waited for the model go on
        try {
          view.warm();
        } catch (err) {
          log.error({ event: 'gateway_warm', err: String(err) }, 'loading the bit vectors failed; the first vector search loads them');
        }
      },
      (err: NodeJS.ErrnoException) => {
        view.provider = { state: 'unavailable', reason: `${err.code ?? 'provider_failed'}: ${err.message}` };
      },
    );
    const writes = new MessageWriteBackend(
      (m) => init.request(m, WRITE_TIMEOUT_MS),
      (m) => init.request(m, WRITE_TIMEOUT_MS),
      board,
      cfg.writes.enabled,
      cfg.writes.agents_may_read_sensitive,
      cfg.writes.max_queue,
    );
    // facts are waited on as `\0fact:<id>` (a vault path never holds a NUL)
    const indexWaiter = new IndexWaiter((p) =>
      p.startsWith(FACT_KEY)
        ? (view.reader.document('fact', p.slice(FACT_KEY.length))?.contentHash ?? null)
        : (view.reader.document(SOURCE_VAULT, p)?.contentHash ?? null),
    );
    const episodes = requestBackend((msg, ms) => init.request(msg as never, ms) as never);
    const metrics = gatewayMetrics();
    const recall = new RecallLog(cfg.data_dir, cfg.recall.max_mb);
    recall.onSize = (bytes) => metrics.recallBytes.set(bytes);
    const search = retriever(view, log, metrics, recall);
    const gate = agentsGate(cfg, token, log);
    const reindex = () => init.request({ type: 'main.reindex' }, null);
    const damage = indexDamage(reindex, log);
    const tools = new ToolGateway({
      damaged: damage.check,
      audit: gate.audit,
      ...toolLimits(cfg),
      view,
      search,
      writes, // offered while writes.available() says so (board gitState)
      episodes,
      waitIndexed: (p, hash, ms) => indexWaiter.wait(p, hash, ms),
      log,
      metrics: toolMetrics(),
      version: VERSION,
    });
    const supervision = () => askSupervision(() => init.request({ type: 'main.supervision' }, SUPERVISION_TIMEOUT_MS));
    // WebDAV (off by default) is loaded only when enabled: its XML parser and handlers stay out of this heap otherwise
    const webdav = cfg.webdav.enabled
      ? { DavAuth: (await import('./webdav/auth.js')).DavAuth, davWriter: (await import('./webdav/dav-writer-deps.js')).davWriter }
      : null;
    const server = createHttpServer({
      token,
      gate,
      tools,
      view,
      search,
      log,
      metrics,
      version: VERSION,
      reindex,
      damaged: damage.check,
      metricsText: () => init.request({ type: 'main.metrics' }, METRICS_TIMEOUT_MS),
      llm: () => llmStatus(cfg, board),
      git: () => gitStatus(cfg.vault),
      supervision,
      // the scheduler runs with writes on (supervisors/actors.ts); a run waits for its LLM call and its commit
      ...(cfg.writes.enabled
        ? {
            jobs: {
              list: () => init.request({ type: 'scheduler.jobs' }, JOBS_TIMEOUT_MS),
              run: (job: string, body: { date?: string; event?: string }) =>
                init.request({ type: 'scheduler.run', job, ...body }, RUN_TIMEOUT_MS),
            },
            dream: {
              status: () => init.request({ type: 'scheduler.dream_status' }, JOBS_TIMEOUT_MS),
              consolidate: (force: boolean) => init.request({ type: 'scheduler.consolidate', force }, RUN_TIMEOUT_MS),
              undoRun: (run: string, by: string) =>
                undoRunIndexed(() => init.request({ type: 'git.undo_run', run, by }, RUN_TIMEOUT_MS), {
                  vault: cfg.vault,
                  isMemoryFile: memoryPaths(cfg.memory.folder).isMemoryFile,
                  wait: (p, hash, ms) => indexWaiter.wait(p, hash, ms),
                  ms: 15_000,
                }),
            },
          }
        : {}),
      reconcile: () => {
        init.emit({ type: 'watcher.rescan', reason: 'asked over HTTP (backfill)' });
        init.emit({ type: 'git.worktree_rescan', reason: 'asked over HTTP' });
      },
      ...(webdav
        ? {
            dav: {
              vault: cfg.vault,
              auth: new webdav.DavAuth(cfg.webdav.users),
              writer: webdav.davWriter(
                cfg,
                (m) => init.request(m, WRITE_TIMEOUT_MS),
                (problem, file, why) =>
                  log.error(
                    { event: `webdav_state_${problem}`, file, why },
                    problem === 'damaged'
                      ? 'WebDAV locks or properties unreadable: starting without them'
                      : 'WebDAV state not saved: kept in memory only',
                  ),
              ),
              onAuthFailed: (remote: string | undefined) => {
                metrics.authFailures.inc();
                log.event('auth_failed', { path: '/dav', remote });
              },
            },
          }
        : {}),
      page: {
        sessions: new Sessions(token),
        vault: cfg.vault,
        version: VERSION,
        state: () => view.state(),
        files: () => view.reader.fileStatuses(),
        supervision,
        llm: () => llmStatus(cfg, board),
        git: () => gitStatus(cfg.vault),
        ...(cfg.writes.enabled
          ? {
              jobs: () => init.request({ type: 'scheduler.jobs' }, JOBS_TIMEOUT_MS),
              dream: () => init.request({ type: 'scheduler.dream_status' }, JOBS_TIMEOUT_MS),
            }
          : {}),
        search: (query: string) => search({ query, k: 10 }, { agent: 'status-page', transport: 'http' }),
      },
      episodes: {
        backend: episodes,
        maxBodyBytes: cfg.episodes.max_body_bytes,
        maxTextBytes: cfg.episodes.max_text_bytes,
      },
    });
    const { host, port: configured } = splitListen(cfg.listen);
    // with port 0, a restarted gateway takes the port its predecessor had, so clients' URLs stay valid
    const port = configured === 0 && board.get('gatewayPort') > 0 ? board.get('gatewayPort') : configured;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const addr = server.address();
    if (typeof addr === 'object' && addr) board.set('gatewayPort', addr.port);
    log.event('gateway_listening', { address: typeof addr === 'object' && addr ? `${addr.address}:${addr.port}` : String(addr) });
    // the MCP half loads a moment after listening, so the first searches after a restart are not queued behind it; or,
    // with heap.preload_mcp off, on the first /mcp request (~12 MB resident that a daemon no MCP client called never holds)
    if (cfg.heap.preload_mcp)
      setTimeout(
        () =>
          void tools.warm().catch((err: unknown) => log.error({ event: 'gateway_warm', err: String(err) }, 'loading the MCP SDK failed')),
        WARM_AFTER_MS,
      ).unref();
    return { server, view, indexWaiter };
  },
);
