// Plain-data types of the SQLite index: what the store writer is asked to write, and what readers get back.
import type { ChunkDraft, FactDraft } from './common.js';

/** A chunk to store, with its vector, or `null` when no model was available (the chunk is keyword-only). */
export interface UpsertChunk extends ChunkDraft {
  vector: Float32Array | null;
}

/** Everything the index keeps about one document (a vault note, later a chat or a task). */
export interface UpsertDocument {
  sourceType: string; // 'vault' for notes
  sourceId: string; // the vault path for notes
  uri?: string;
  title: string;
  contentHash: string;
  mtimeMs: number;
  size: number;
  metadata: object; // JSON: frontmatter, links, frontmatterError
  tags: string[];
  sensitive: boolean;
  chunks: UpsertChunk[];
  /** A note's inline-field facts (knowledge_facts); absent for documents that have none to project (episodes). */
  facts?: FactForStore[];
}

/** A fact as the store is asked to keep it; recordedAt (when its line first appeared, from git) defaults to now. */
export type FactForStore = FactDraft & { recordedAt?: number };

/** A live document as stored (what rename and status need to know without reading the file). */
export interface StoredDocument {
  id: number;
  sourceType: string;
  sourceId: string;
  uri: string | null;
  title: string | null;
  contentHash: string;
  mtimeMs: number;
  size: number;
  metadata: Record<string, unknown>;
  /** `metadata.frontmatter`, when it is an object. */
  frontmatter: Record<string, unknown> | null;
  tags: string[];
  sensitive: boolean;
  chunkerVersion: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  indexedAt: number | null;
}

export type FileState = 'indexed' | 'skipped' | 'failed';

/** Stable reason codes for a file that was skipped or failed; shown by `status --files`. */
export type FileStatusReason =
  | 'not_utf8'
  | 'binary'
  | 'too_large'
  | 'unreadable'
  | 'frontmatter_invalid'
  | 'symlink_loop'
  | 'vanished'
  | (string & {}); // other actors may add codes; the named ones are the ones we promise

export interface FileStatus {
  path: string;
  state: FileState;
  reason: FileStatusReason | null;
  message: string | null;
  updatedAt: number;
}

/** What the watcher compares with `stat` on boot to find changed files without reading them. */
export interface DocumentStat {
  mtimeMs: number;
  size: number;
  contentHash: string;
  /** The chunker that built this document's chunks; a different one means re-chunk. */
  chunkerVersion: string | null;
}

/** Documents, deleted and lastIndexedAt count the reader's user; chunks and vectors the whole index. */
export interface IndexCounts {
  documents: number; // live
  chunks: number;
  vectors: number;
  deleted: number; // soft-deleted documents
  lastIndexedAt: number | null;
}

/** Row counts that must all be zero when the tables agree. */
export interface IndexConsistency {
  chunksWithoutFts: number;
  ftsWithoutChunk: number;
  /** FTS rows whose text (content, heading, title) differs from the chunk and document they index. */
  ftsStale: number;
  /** Chunks with Chinese/Japanese/Korean/Thai… text missing from the character-pair table, and pair rows without a chunk. */
  pairsMissing: number;
  pairsWithoutChunk: number;
  vectorsWithoutChunk: number;
  /** Float vectors without a coarse bit vector, or bit vectors without a float vector. */
  vectorPairMismatch: number;
  chunksOfDeletedDocs: number;
  /** Buckets of the trigger-kept document counts (and the chunk count) that disagree with the rows. */
  countsDrift: number;
}

export interface ModelChange {
  changed: boolean;
  /** Vectors dropped because they came from another model (they never mix). */
  droppedVectors: number;
}

export type SearchMode = 'hybrid' | 'bm25' | 'vector';

export interface SearchFilters {
  /** Keep documents whose source id (vault path) starts with this string. */
  pathPrefix?: string;
  sourceType?: string;
  /** Epoch ms; keep documents whose content changed at or after this time (`updated_at`). */
  since?: number;
  /** All must be present; case-insensitive; `project` also matches the nested tag `project/alpha`. */
  tags?: string[];
  /** Sensitive notes (`memvault: local-only`, `sensitive: true`) are left out unless this is true. */
  includeSensitive?: boolean;
  /** Leave out the facts the dream consolidated into a page that still holds them (the connection's `temp.dream_hidden`). */
  hideCovered?: boolean;
}

export interface SearchRequest {
  query: string;
  k: number;
  mode: SearchMode;
  filters?: SearchFilters;
  /** Hits scoring below this are dropped; the scale depends on the mode (see SearchHit.score). */
  minScore?: number;
  userId?: string;
  /** `note`: one hit per note (its best chunk) with up to 3 other matching chunks in `also`; default one hit per chunk. */
  group?: 'note' | 'chunk';
  /** Rows keyword search scores before only a query's rarer words choose rows (match-budget.ts; its default when absent). */
  matchBudget?: number;
}

export interface SearchHit {
  chunkId: number;
  path: string; // source_id
  sourceType: string;
  title: string; // the document's title, or its path when it has none
  headingPath: string[];
  startLine: number;
  endLine: number;
  /** ~200 characters of the chunk around the first keyword match, or its start when matched by vector only. */
  snippet: string;
  /**
   * - vector: cosine similarity of the query and the chunk, -1..1 (unit vectors); with `group: 'note'` the note's:
   *   its best chunk's plus a tenth of each of its next two matching chunks' (ranking.ts);
   * - bm25: FTS5 bm25 mapped to 0..1 by `b / (1 + b)` with b = -bm25(), so it does not depend on the other hits;
   * - hybrid: the bm25 and vector scores each min-max normalised over the candidates and added with weights 1 and
   *   0.5, divided by 1.5 (0..1; 1 means top of both lists); per note with `group: 'note'` (ranking.ts).
   */
  score: number;
  sensitive: boolean;
  /** An episode's or a fact's document metadata (its ids, time, category…); vault notes carry none here. */
  metadata?: Record<string, unknown>;
  /** With `group: 'note'`: the note's other matching chunks, best first. */
  also?: SearchHit[];
}
