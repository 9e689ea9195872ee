// What readers see: the index through a read-only connection, its state (counts, pending, model), and search
// with the query embedded by the gateway's own provider — shared by the gateway actor and the CLI's direct mode.
import type Database from 'better-sqlite3';
import type { Board } from '../../supervisors/runtime/board.js';
import { EMBEDDER_STATES, STORE_STATES } from '../../supervisors/runtime/board.js';
import { STORE_REASONS } from '../store-writer/write-retry.js';
import { modelKey, SOURCE_VAULT, type ModelInfo } from '../../messages/common.js';
import type { EmbeddingProvider } from '../../messages/embedding.js';
import type { SearchHit } from '../../messages/store.js';
import { openIndex } from '../store-writer/schema.js';
import { IndexReader } from '../store-writer/index-reader.js';
import { hasUnspaced } from '../store-writer/unspaced-scripts.js';
import { coarseIndex, loadedCoarseIndex } from './coarse-index.js';
import { search, type SearchOptions, searchWhileEmbedding } from './search.js';
import { monotonicMs } from '../../supervisors/clock.js';
import { sinceMs, type SearchBody } from './api-schema.js';
import type { Config } from '../../config/load.js';

export interface IndexState {
  documents: number;
  chunks: number;
  vectors: number;
  pending: number;
  in_flight: number;
  files_total: number;
  last_indexed_at: string | null;
  oldest_pending_age_ms: number | null;
  reconciled: boolean;
  model: ModelInfo | null; // what built the stored vectors
  embedder: { state: string; model: ModelInfo | null; reason: string | null };
  vector_search: { available: boolean; reason: string | null };
  /** Whether index writes go through; otherwise why they wait (disk_full, read_only, io_error) — pending work is kept. */
  store: { state: string; reason: string | null };
  /** `missing` while the vault folder is gone: results come from the index as it was, and writes are refused. */
  vault: 'present' | 'missing';
  /** Live documents by source type (vault, chat, task, correction, fact). */
  sources: Record<string, number>;
  /** Episodes and facts received and not yet searchable, the age of the oldest, and failures since start. */
  episodes: { pending: number; oldest_pending_age_ms: number | null; replaying: boolean; failed: number };
}

/** One more matching section of a result's note (`group: "note"`). */
export interface AlsoResult {
  heading_path: string[];
  start_line: number;
  end_line: number;
  snippet: string;
  score: number;
}

export interface SearchResult extends AlsoResult {
  /** The note (vault) or the day log (fact); episodes have none. */
  path?: string;
  title: string;
  sensitive: boolean;
  source_type: string;
  /** Episodes: the id memory_forget takes (`chat:<session>:<first>-<last>`, `task:<id>`, `correction:<id>`). */
  episode_id?: string;
  session_id?: string;
  task_id?: string;
  correction_id?: string;
  /** Episodes and facts: when it happened (a chat turn: its newest message), ISO 8601. */
  at?: string;
  fact_id?: string;
  category?: string | null;
  tags?: string[];
  /** Facts: the line in the day log. */
  line?: number;
  /** With `group: "note"` (the default): up to 3 other matching sections of the same note, best first. */
  also?: AlsoResult[];
}

function also(h: SearchHit): AlsoResult {
  return { heading_path: h.headingPath, start_line: h.startLine, end_line: h.endLine, snippet: h.snippet, score: h.score };
}

export interface SearchResponse {
  results: SearchResult[];
  mode: 'hybrid' | 'bm25' | 'vector';
  degraded: string | null; // why the requested mode could not run as asked
  took_ms: number;
  index: IndexState;
}

export interface SearchLimits {
  defaultK: number;
  maxK: number;
  minScore: number;
  defaultMode: 'hybrid' | 'bm25' | 'vector';
  userId: string;
  /** Rows keyword search scores (match-budget.ts); its default when absent. */
  matchBudget?: number;
  /** The dream's covered facts for the filter (actors/dream/covered-file.ts), hidden unless include_consolidated. */
  covered?: (db: Database.Database) => boolean;
}

/** The limits the configuration sets (the gateway adds its covered-facts filter). */
export function configuredLimits(cfg: Pick<Config, 'search' | 'user_id'>): SearchLimits {
  return {
    defaultK: cfg.search.default_k,
    maxK: cfg.search.max_k,
    minScore: cfg.search.min_score,
    defaultMode: cfg.search.default_mode,
    userId: cfg.user_id,
    matchBudget: cfg.search.match_budget,
  };
}

/**
 * SQLite's page cache for searches. It held the bit vectors for sqlite-vec's scan (64 MiB); now they live in memory
 * (coarse-index.ts) and the re-scored float vectors are scattered pages that rarely meet again, so 16 MiB keeps the
 * hot FTS and chunk pages and returns ~48 MB at 100k chunks.
 */
const CACHE_MIB = 16;

/** How long a hybrid or vector search waits for a model that is still loading before it answers keyword-only. */
const PROVIDER_WAIT_MS = 10_000;

export type ProviderState =
  | { state: 'starting' }
  /** The CLI read the index with no daemon running: no model is loaded, and none is loading. */
  | { state: 'not_running' }
  | { state: 'ready'; provider: Pick<EmbeddingProvider, 'info' | 'embed'> }
  | { state: 'unavailable'; reason: string };

/** Why vectors are not served when the CLI reads the index itself (`memvault status`, a bm25 search, no daemon). */
export const NO_DAEMON =
  'no_daemon: no daemon runs, so no model is loaded to serve vector search (`memvault search` loads one for its own query)';

export class IndexView {
  readonly #dbFile: string;
  #db: Database.Database;
  #reader: IndexReader;
  #counts: { at: number; v: ReturnType<IndexReader['counts']>; sources: Record<string, number> } | null = null;
  provider: ProviderState = { state: 'starting' };
  /** Settles when the provider leaves `starting`; a search that needs vectors waits for it (bounded) rather than degrade. */
  providerSettled: Promise<unknown> | null = null;
  /** While starting: why it will take long (a model downloading), so searches answer by keyword at once instead of waiting. */
  providerBusy: (() => string | null) | null = null;

  constructor(
    dbFile: string,
    readonly board: Board | null,
    readonly limits: SearchLimits,
  ) {
    this.#dbFile = dbFile;
    this.#db = openIndex(dbFile, { readonly: true, cacheMiB: CACHE_MIB });
    this.#reader = new IndexReader(this.#db, { userId: this.limits.userId });
    this.#generation = board?.get('indexGeneration') ?? 0;
  }

  #generation = 0;

  /** Reopens now if a reindex swapped the index file (main asks after a swap: an idle view let go of the old file). */
  followSwap(): void {
    this.#fresh();
  }

  /** After a reindex swapped the index file, this connection still reads the old one: reopen. */
  #fresh(): void {
    const g = this.board?.get('indexGeneration') ?? 0;
    if (g !== this.#generation) {
      this.#generation = g;
      this.reopen();
    }
  }

  /** Searches between their keyword half and their vector half (searchWhileEmbedding): they hold the connection. */
  #inFlight = 0;
  /** Connections replaced by reopen() while searches were in flight, closed when the last one ends. */
  #retired: Database.Database[] = [];

  /** Reopen after the index file was swapped (reindex). */
  reopen(): void {
    // a search in flight finishes on the file it started on: chunk ids of the new file name other chunks
    if (this.#inFlight > 0) this.#retired.push(this.#db);
    else this.#db.close();
    this.#db = openIndex(this.#dbFile, { readonly: true, cacheMiB: CACHE_MIB });
    this.#reader = new IndexReader(this.#db, { userId: this.limits.userId });
    this.#counts = null;
  }

  close(): void {
    this.#db.close();
  }

  /**
   * Load the vector pass's bits into memory now (~0.1–0.2 s at 100k chunks) rather than in the first search that
   * needs them: the gateway calls this once it listens, while the query model is still loading.
   */
  warm(): void {
    this.#fresh();
    this.#db.transaction(() => coarseIndex(this.#db))();
  }

  get reader(): IndexReader {
    this.#fresh();
    return this.#reader;
  }

  /** The read connection itself, for queries with their own module (knowledge facts: store-writer/facts-reader.ts). */
  get db(): Database.Database {
    this.#fresh();
    return this.#db;
  }

  #vectorAvailability(): { available: boolean; reason: string | null; stored: ModelInfo | null } {
    const stored = this.#reader.model();
    const p = this.provider;
    if (p.state === 'starting')
      return { available: false, reason: `embedder_starting: ${this.providerBusy?.() ?? 'the model is loading'}`, stored };
    if (p.state === 'unavailable') return { available: false, reason: `embedder_unavailable: ${p.reason}`, stored };
    if (p.state === 'not_running') return { available: false, reason: NO_DAEMON, stored };
    if (stored && modelKey(stored) !== modelKey(p.provider.info))
      return {
        available: false,
        reason: `model_mismatch: the index was built with ${modelKey(stored)} but ${modelKey(p.provider.info)} is configured; run \`memvault reindex\``,
        stored,
      };
    return { available: true, reason: null, stored };
  }

  state(): IndexState {
    this.#fresh();
    const now = monotonicMs();
    // counts change only when the store writes: recount when it has written since (or every second without a board)
    const stamp = this.board ? this.board.get('storeWrites') + this.board.get('indexGeneration') * 1e9 : Math.floor(now / 1000);
    if (!this.#counts || this.#counts.at !== stamp) {
      // one snapshot; the coarse index, once a search or the warm-up loaded it, knows how many vectors it holds
      const db = this.#db;
      const { counts, bySource } = db.transaction(() => this.#reader.countsWithSources(loadedCoarseIndex(db)?.size))();
      this.#counts = { at: stamp, v: counts, sources: bySource };
    }
    const c = this.#counts.v;
    const b = this.board;
    const last = Math.max(c.lastIndexedAt ?? 0, b?.get('lastIndexedAt') ?? 0);
    const oldest = b?.get('oldestPendingAt') ?? 0;
    const v = this.#vectorAvailability();
    const p = this.provider;
    return {
      documents: c.documents,
      chunks: c.chunks,
      vectors: c.vectors,
      pending: b?.get('pending') ?? 0,
      in_flight: b?.get('inFlight') ?? 0,
      files_total: b?.get('filesTotal') ?? c.documents,
      last_indexed_at: last > 0 ? new Date(last).toISOString() : null,
      oldest_pending_age_ms: oldest > 0 ? Math.max(0, Math.round(monotonicMs() - oldest)) : null, // monotonic: immune to clock jumps
      reconciled: b ? b.get('reconciledAt') > 0 : true,
      model: v.stored,
      embedder: {
        state: b ? (EMBEDDER_STATES[b.get('embedderState')] ?? 'starting') : p.state,
        model: p.state === 'ready' ? p.provider.info : null,
        reason: p.state === 'unavailable' ? p.reason : p.state === 'starting' ? (this.providerBusy?.() ?? null) : null,
      },
      vector_search: { available: v.available, reason: v.reason },
      store: storeState(b),
      vault: b?.get('vaultState') === 1 ? 'missing' : 'present',
      sources: this.#counts.sources,
      episodes: {
        pending: b?.get('memoryPending') ?? 0,
        oldest_pending_age_ms:
          b && b.get('memoryOldestPendingAt') > 0 ? Math.max(0, Math.round(now - b.get('memoryOldestPendingAt'))) : null,
        replaying: (b?.get('memoryReplaying') ?? 0) === 1,
        failed: b?.get('episodesFailed') ?? 0,
      },
    };
  }

  /** `opts` is for benches comparing settings; the gateway uses the defaults. */
  async search(body: SearchBody, opts: SearchOptions = {}): Promise<SearchResponse> {
    const started = performance.now();
    this.#fresh();
    const l = this.limits;
    const asked = body.mode ?? l.defaultMode;
    const k = Math.min(body.k ?? l.defaultK, l.maxK);
    if (asked !== 'bm25' && this.provider.state === 'starting' && this.providerSettled && !this.providerBusy?.())
      await Promise.race([this.providerSettled, new Promise((r) => setTimeout(r, PROVIDER_WAIT_MS).unref())]);
    const v = this.#vectorAvailability();
    let mode = asked;
    let degraded: string | null = null;
    let qv: Promise<Float32Array | null> | null = null;
    if (asked !== 'bm25') {
      if (v.available && this.provider.state === 'ready' && cannotRead(this.provider.provider.info, body.query)) {
        // An English-only model maps every Chinese, Japanese, Korean or Thai query near one point, and fusion
        // would put the same unrelated section first for all of them: such queries run by keyword alone.
        degraded = `model_cannot_read_script: the ${this.provider.provider.info.name} model reads English only; this query was searched by keyword (configure a multilingual onnx model for semantic search in other scripts)`;
        mode = 'bm25';
      } else if (v.available && this.provider.state === 'ready') {
        // embedded in main's query pool while this thread reads the keyword half
        qv = this.provider.provider.embed([body.query], 'query').then(([vec]) => vec ?? null);
      } else {
        degraded = v.reason;
        mode = 'bm25'; // keyword search still answers; the response says why
      }
    }
    const f = body.filters ?? {};
    const req = {
      query: body.query,
      k,
      mode,
      group: body.group ?? 'note',
      minScore: l.minScore,
      userId: l.userId,
      matchBudget: l.matchBudget,
      filters: {
        pathPrefix: f.path_prefix ?? f.folder,
        sourceType: f.source_type,
        since: sinceMs(f.since),
        tags: f.tags,
        includeSensitive: f.include_sensitive ?? false,
        ...(f.include_consolidated || !l.covered?.(this.#db) ? {} : { hideCovered: true }),
      },
    };
    const db = this.#db;
    let hits: SearchHit[];
    this.#inFlight++;
    try {
      hits = qv ? await searchWhileEmbedding(db, req, qv, opts) : search(db, req, null, opts);
    } finally {
      if (--this.#inFlight === 0) for (const old of this.#retired.splice(0)) old.close();
    }
    return {
      results: hits.map((h) => ({
        ...where(h, h.sourceType === SOURCE_VAULT ? null : (h.metadata ?? {})),
        title: h.title,
        ...also(h),
        sensitive: h.sensitive,
        source_type: h.sourceType,
        ...(h.also ? { also: h.also.map(also) } : {}),
      })),
      mode,
      degraded,
      took_ms: Math.round((performance.now() - started) * 100) / 100,
      index: this.state(),
    };
  }
}

/** Where a hit is: a vault note's path, or an episode's ids and time, or a fact's id, log line, category and tags. */
function where(h: SearchHit, meta: Record<string, unknown> | null): Partial<SearchResult> {
  if (meta === null) return { path: h.path };
  const at = typeof meta['at_ms'] === 'number' ? { at: new Date(meta['at_ms']).toISOString() } : {};
  switch (h.sourceType) {
    case 'chat':
      return { episode_id: `chat:${h.path}`, session_id: String(meta['session_id'] ?? ''), ...at };
    case 'task':
      return { episode_id: `task:${h.path}`, task_id: h.path, ...at };
    case 'correction':
      return { episode_id: `correction:${h.path}`, correction_id: h.path, ...at };
    case 'fact':
      return {
        path: String(meta['path'] ?? ''),
        fact_id: h.path,
        ...at,
        category: typeof meta['category'] === 'string' ? meta['category'] : null,
        tags: Array.isArray(meta['tags']) ? (meta['tags'] as string[]) : [],
        line: Number(meta['line'] ?? 0),
      };
    default:
      return { path: h.path };
  }
}

function storeState(b: Board | null): IndexState['store'] {
  const state = STORE_STATES[b?.get('storeState') ?? 0] ?? 'ok';
  return { state, reason: state === 'ok' ? null : STORE_REASONS[state] };
}

/** Embedding providers whose model reads English only (the built-in USE-lite). */
const ENGLISH_ONLY = new Set(['use-lite']);

/** Whether the query holds text in a script the model was not trained on (see unspaced-scripts.ts). */
function cannotRead(model: ModelInfo, query: string): boolean {
  return ENGLISH_ONLY.has(model.provider) && hasUnspaced(query);
}
