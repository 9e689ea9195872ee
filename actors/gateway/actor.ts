// The gateway actor (worker thread): the HTTP listener agents and the CLI call; reads the index read-only and
// embeds queries in main's one-thread query pool so searches never queue behind bulk indexing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { runActor } from '../runtime/worker.js';
import { boot } from '../common/boot.js';
import { assertNever } from '../../messages/common.js';
import type { GatewayMsg } from '../../messages/to-gateway.js';
import type { MainMsg } from '../../messages/to-main.js';
import type { GitMsg } from '../../messages/to-git.js';
import { SOURCE_VAULT } from '../store-writer/apply.js';
import { IndexWaiter, MessageWriteBackend } from './write-backend.js';
import { splitListen } from '../../config/load.js';
import { providerSettings } from '../embedder/factory.js';
import { poolClient, remoteQueryProvider } from '../embedder/pool-api.js';
import { createHttpServer } from './http-server.js';
import { IndexView } from './index-view.js';
import { gatewayMetrics } from './metrics.js';
import { VERSION } from '../common/version.js';
import { ToolGateway } from './tools/gateway.js';
import { toolLimits } from './tools/deps.js';
import { toolMetrics } from './tools/metrics.js';

const { b, board, log } = boot();
const cfg = b.config;

interface State {
  server: Server;
  view: IndexView;
  waiting: Map<number, (m: { text: string; contentType: string }) => void>;
  reindexWaiting: Map<number, (m: Extract<GatewayMsg, { type: 'gateway.reindexed' }>) => void>;
  writes: MessageWriteBackend;
  indexWaiter: IndexWaiter;
}

/** How long after listening the gateway loads the MCP SDK in the background (the first /mcp request loads it sooner). */
const WARM_AFTER_MS = 1_000;
let nextRequest = 1;
let post: (m: MainMsg | GitMsg) => void = () => {};

runActor<GatewayMsg, MainMsg | GitMsg, State>(
  (msg, ctx) => {
    switch (msg.type) {
      case 'gateway.metrics': {
        const w = ctx.state.waiting.get(msg.requestId);
        ctx.state.waiting.delete(msg.requestId);
        w?.({ text: msg.text, contentType: msg.contentType });
        return;
      }
      case 'gateway.mutation_result':
        ctx.state.writes.onResult(msg.requestId, msg.result);
        return;
      case 'gateway.indexed':
        ctx.state.indexWaiter.onIndexed(msg.path, msg.contentHash);
        return;
      case 'gateway.reindexed': {
        const w = ctx.state.reindexWaiting.get(msg.requestId);
        ctx.state.reindexWaiting.delete(msg.requestId);
        w?.(msg);
        return;
      }
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    post = init.emit;
    const token = readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim();
    const view = new IndexView(b.dbFile, board, {
      defaultK: cfg.search.default_k,
      maxK: cfg.search.max_k,
      minScore: cfg.search.min_score,
      defaultMode: cfg.search.default_mode,
      userId: cfg.user_id,
    });
    // listen at once, the query model loading beside it (~0.5 s): keyword search answers meanwhile, and a search
    // that needs vectors waits for the model (up to 10 s) rather than degrade — a restarted gateway serves within ms
    // the model runs in main's one-thread `query` pool, not here: a gateway restart never kills a thread inside
    // onnxruntime, and the restarted gateway finds the model loaded
    if (!b.port) throw new Error("the gateway needs workerData.port to main's embedding pools");
    view.providerSettled = remoteQueryProvider(poolClient(b.port), providerSettings(cfg)).then(
      (provider) => {
        view.provider = { state: 'ready', provider };
      },
      (err: NodeJS.ErrnoException) => {
        view.provider = { state: 'unavailable', reason: `${err.code ?? 'provider_failed'}: ${err.message}` };
      },
    );
    const waiting = new Map<number, (m: { text: string; contentType: string }) => void>();
    const reindexWaiting: State['reindexWaiting'] = new Map();
    const writes = new MessageWriteBackend((m) => post(m), board, cfg.writes.agents_may_read_sensitive, cfg.writes.max_queue);
    const indexWaiter = new IndexWaiter((p) => view.reader.document(SOURCE_VAULT, p)?.contentHash ?? null);
    const tools = new ToolGateway({
      ...toolLimits(cfg),
      view,
      writes, // offered while writes.available() says so (board gitState)
      waitIndexed: (p, hash, ms) => indexWaiter.wait(p, hash, ms),
      log,
      metrics: toolMetrics(),
      version: VERSION,
    });
    const server = createHttpServer({
      token,
      tools,
      view,
      log,
      metrics: gatewayMetrics(),
      version: VERSION,
      reindex: () =>
        new Promise((resolve) => {
          const requestId = nextRequest++;
          reindexWaiting.set(requestId, (m) => resolve({ ok: m.ok, documents: m.documents, ms: m.ms, error: m.error }));
          post({ type: 'main.reindex_request', requestId });
        }),
      metricsText: () =>
        new Promise((resolve, reject) => {
          const requestId = nextRequest++;
          const timer = setTimeout(() => {
            waiting.delete(requestId);
            reject(new Error('metrics collection timed out'));
          }, 5_000);
          waiting.set(requestId, (m) => {
            clearTimeout(timer);
            resolve(m);
          });
          post({ type: 'main.metrics_request', requestId });
        }),
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
    // the MCP half loads a moment after listening, so the first searches after a restart are not queued behind it
    setTimeout(() => void tools.warm().catch((err: unknown) => log.error({ event: 'gateway_warm', err: String(err) }, 'loading the MCP SDK failed')), WARM_AFTER_MS).unref();
    return { server, view, waiting, reindexWaiting, writes, indexWaiter };
  },
);
