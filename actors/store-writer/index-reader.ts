// Read operations on the index for reconcile, vector reuse and status; works on a read-only or the write connection.
import type { Database } from 'better-sqlite3';
import type { ModelInfo } from '../../messages/common.js';
import type { DocumentStat, FileState, FileStatus, IndexConsistency, IndexCounts, StoredDocument } from '../../messages/store.js';
import { ftsHeading, vectorDim } from './schema.js';
import { COUNTS_DRIFT_SQL, storedCounts } from './index-counts.js';
import { prepared } from './statement-cache.js';

/** SQLite caps bound parameters per statement; json_each takes any number of keys in one. */
const asJson = (xs: readonly unknown[]): string => JSON.stringify(xs);

/** A Float32Array of its own (aligned) from a vec0 blob. */
function toVector(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

export class IndexReader {
  readonly #db: Database;
  readonly #userId: string;

  constructor(db: Database, opts: { userId?: string } = {}) {
    this.#db = db;
    this.#userId = opts.userId ?? 'default';
  }

  /** Live documents of `sourceType` by source id, for comparing with `stat` on boot. */
  documentStats(sourceType: string): Map<string, DocumentStat> {
    const rows = prepared(
      this.#db,
      `SELECT source_id, coalesce(mtime_ms, -1) AS mtime_ms, coalesce(size, -1) AS size, content_hash, chunker_version
       FROM memory_documents
       WHERE user_id = ? AND source_type = ? AND deleted_at IS NULL`,
    ).all(this.#userId, sourceType) as Array<{
      source_id: string;
      mtime_ms: number;
      size: number;
      content_hash: string;
      chunker_version: string | null;
    }>;
    const out = new Map<string, DocumentStat>();
    for (const r of rows) {
      out.set(r.source_id, { mtimeMs: r.mtime_ms, size: r.size, contentHash: r.content_hash, chunkerVersion: r.chunker_version });
    }
    return out;
  }

  /** The live document at `sourceId`, or null. */
  document(sourceType: string, sourceId: string): StoredDocument | null {
    const r = prepared(
      this.#db,
      `SELECT id, source_type, source_id, uri, title, content_hash, coalesce(mtime_ms, -1) AS mtime_ms, coalesce(size, -1) AS size,
         metadata, tags, sensitive, chunker_version, created_at, updated_at, indexed_at
       FROM memory_documents WHERE user_id = ? AND source_type = ? AND source_id = ? AND deleted_at IS NULL`,
    ).get(this.#userId, sourceType, sourceId) as
      | {
          id: number;
          source_type: string;
          source_id: string;
          uri: string | null;
          title: string | null;
          content_hash: string;
          mtime_ms: number;
          size: number;
          metadata: string | null;
          tags: string | null;
          sensitive: number;
          chunker_version: string | null;
          created_at: number | null;
          updated_at: number | null;
          indexed_at: number | null;
        }
      | undefined;
    if (!r) return null;
    const metadata = documentMetadata(r.metadata);
    const fm = metadata['frontmatter'];
    return {
      id: r.id,
      sourceType: r.source_type,
      sourceId: r.source_id,
      uri: r.uri,
      title: r.title,
      contentHash: r.content_hash,
      mtimeMs: r.mtime_ms,
      size: r.size,
      metadata,
      frontmatter: fm !== null && typeof fm === 'object' && !Array.isArray(fm) ? (fm as Record<string, unknown>) : null,
      tags: (r.tags ? JSON.parse(r.tags) : []) as string[],
      sensitive: r.sensitive !== 0,
      chunkerVersion: r.chunker_version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      indexedAt: r.indexed_at,
    };
  }

  /**
   * Every live document of `sourceType` with what the link graph needs, in one narrow read: the graph is rebuilt after
   * each store write, and a document() a note took ~50 ms at 4,612 notes (this read: ~6 ms).
   */
  documentLinks(
    sourceType: string,
  ): Array<{ sourceId: string; title: string | null; metadata: Record<string, unknown>; sensitive: boolean }> {
    const rows = prepared(
      this.#db,
      `SELECT source_id, title, metadata, sensitive FROM memory_documents WHERE user_id = ? AND source_type = ? AND deleted_at IS NULL`,
    ).all(this.#userId, sourceType) as Array<{ source_id: string; title: string | null; metadata: string | null; sensitive: number }>;
    return rows.map((r) => ({
      sourceId: r.source_id,
      title: r.title,
      metadata: documentMetadata(r.metadata),
      sensitive: r.sensitive !== 0,
    }));
  }

  /** Stored vectors of chunks with these content hashes (any document), so unchanged chunks are not re-embedded. */
  vectorsByChunkHash(hashes: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0 || vectorDim(this.#db) === null) return out;
    const rows = prepared(
      this.#db,
      `SELECT c.content_hash AS hash, v.embedding AS embedding
       FROM (SELECT DISTINCT value FROM json_each(?)) h
       JOIN memory_chunks c ON c.content_hash = h.value
       JOIN memory_vectors v ON v.chunk_id = c.id`,
    ).all(asJson(hashes)) as Array<{ hash: string; embedding: Buffer }>;
    for (const r of rows) if (!out.has(r.hash)) out.set(r.hash, toVector(r.embedding));
    return out;
  }

  /** Source ids of live documents with at least one chunk that has no vector (to embed when a model is back). */
  documentsMissingVectors(sourceType: string): string[] {
    const hasVectors = vectorDim(this.#db) !== null;
    return prepared(
      this.#db,
      `SELECT DISTINCT d.source_id FROM memory_documents d JOIN memory_chunks c ON c.document_id = d.id
       WHERE d.user_id = ? AND d.source_type = ? AND d.deleted_at IS NULL
       ${hasVectors ? 'AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.chunk_id = c.id)' : ''}
       ORDER BY d.source_id`,
    )
      .pluck()
      .all(this.#userId, sourceType) as string[];
  }

  /** Source ids of `sourceType` documents (live or soft-deleted) whose time (`metadata.at_ms`, else updated_at) is before `cutoff`. */
  sourceIdsBefore(sourceType: string, cutoff: number): string[] {
    return prepared(
      this.#db,
      `SELECT source_id FROM memory_documents
       WHERE user_id = ? AND source_type = ? AND coalesce(json_extract(metadata, '$.at_ms'), updated_at) < ?`,
    )
      .pluck()
      .all(this.#userId, sourceType, cutoff) as string[];
  }

  /** A `meta` row (the journal checkpoint, a fact log's last-seen stat), or null. */
  meta(key: string): string | null {
    return this.#meta(key);
  }

  /** `meta` rows whose key starts with `prefix`. */
  metaWithPrefix(prefix: string): Map<string, string> {
    const rows = prepared(this.#db, `SELECT key, value FROM meta WHERE substr(key, 1, length(?)) = ?`).all(prefix, prefix) as Array<{
      key: string;
      value: string;
    }>;
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /**
   * Live documents of `sourceType` whose source id starts with `prefix` (a chat session's `<session>:`, a day's
   * facts `YYYY-MM-DD#`), with their hash and metadata: a range on the unique key, not a scan.
   */
  documentsWithPrefix(
    sourceType: string,
    prefix: string,
  ): Array<{ sourceId: string; contentHash: string; metadata: Record<string, unknown> }> {
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = prepared(
      this.#db,
      `SELECT source_id, content_hash, metadata FROM memory_documents
       WHERE user_id = ? AND source_type = ? AND source_id >= ? AND source_id < ? AND deleted_at IS NULL ORDER BY source_id`,
    ).all(this.#userId, sourceType, prefix, end) as Array<{ source_id: string; content_hash: string; metadata: string | null }>;
    return rows.map((r) => ({
      sourceId: r.source_id,
      contentHash: r.content_hash,
      metadata: documentMetadata(r.metadata),
    }));
  }

  /** The chunk texts of a live document, in order (a forgotten chat message is cut out of its turn from them). */
  chunkTexts(sourceType: string, sourceId: string): string[] {
    return prepared(
      this.#db,
      `SELECT c.content FROM memory_documents d JOIN memory_chunks c ON c.document_id = d.id
       WHERE d.user_id = ? AND d.source_type = ? AND d.source_id = ? AND d.deleted_at IS NULL ORDER BY c.seq, c.id`,
    )
      .pluck()
      .all(this.#userId, sourceType, sourceId) as string[];
  }

  /** The fact log from `firstDay` on, a line per item in the order it was written (day, then line). */
  factLinesFrom(firstDay: string): Array<{ factId: string; text: string }> {
    return prepared(
      this.#db,
      `SELECT d.source_id AS factId, group_concat(c.content, ' ') AS text
       FROM memory_documents d JOIN memory_chunks c ON c.document_id = d.id
       WHERE d.source_type = 'fact' AND d.deleted_at IS NULL AND d.source_id >= ? AND d.user_id = ?
       GROUP BY d.id, c.start_line ORDER BY substr(d.source_id, 1, 10), c.start_line`,
    ).all(firstDay, this.#userId) as Array<{ factId: string; text: string }>;
  }

  /** Whether fact `factId`'s document holds a chunk starting at `line` of its day log (that line is indexed). */
  factChunkAt(factId: string, line: number): boolean {
    return (
      prepared(
        this.#db,
        `SELECT 1 FROM memory_chunks c JOIN memory_documents d ON c.document_id = d.id
         WHERE d.source_type = 'fact' AND d.source_id = ? AND d.user_id = ? AND d.deleted_at IS NULL AND c.start_line = ?
         LIMIT 1`,
      ).get(factId, this.#userId, line) !== undefined
    );
  }

  /**
   * Fact `id`'s document and the other days' documents of a fact of its hash (the same text remembered on other days,
   * as `norm` tells), each with its normalised text (null in a document indexed before it was kept), title and who
   * remembered its copies: one read, so a forget checks every copy its tombstone hides in one view of the index.
   */
  factOnEveryDay(id: string): Array<{ factId: string; title: string | null; norm: string | null; whos: Array<string | null> }> {
    const rows = prepared(
      this.#db,
      `SELECT source_id, title, metadata FROM memory_documents
       WHERE source_type = 'fact' AND deleted_at IS NULL AND source_id LIKE ? AND user_id = ?`,
    ).all(`%${id.slice(id.indexOf('#'))}`, this.#userId) as Array<{ source_id: string; title: string | null; metadata: string | null }>;
    return rows.map((r) => {
      const m = documentMetadata(r.metadata);
      return { factId: r.source_id, title: r.title, norm: typeof m['norm'] === 'string' ? m['norm'] : null, whos: factAuthors(m) };
    });
  }

  /** The vault note titled `title` (any letter case; the shortest path first), or null. */
  noteTitled(title: string): string | null {
    const found = prepared(
      this.#db,
      `SELECT source_id FROM memory_documents WHERE user_id = ? AND source_type = 'vault' AND deleted_at IS NULL
       AND title = ? COLLATE NOCASE ORDER BY length(source_id), source_id LIMIT 1`,
    )
      .pluck()
      .get(this.#userId, title) as string | undefined;
    return found ?? null;
  }

  /**
   * How many documents, chunks and vectors the index holds. `vectors` is counted in the sign-bit table, which holds
   * the same rows as the float one (written and deleted together) at ~330 bytes a row against ~2 KB: counting the
   * floats read every page of them (100k chunks: 130-200 ms warm, ~1 s cold, where the bits take 12-21 ms). A caller
   * that already knows the count (the gateway's coarse index, in memory) passes it.
   */
  counts(vectors?: number): IndexCounts {
    return this.countsWithSources(vectors).counts;
  }

  /**
   * counts(), and the live documents by source type, from the counts the schema's triggers keep (index-counts.ts): the
   * gateway takes them again after every store write, and a pass over the documents took ~1.8 ms at 10k of them.
   */
  countsWithSources(vectors?: number): { counts: IndexCounts; bySource: Record<string, number> } {
    const stored = storedCounts(this.#db, this.#userId);
    const vectorCount =
      vectors ??
      (vectorDim(this.#db) === null ? 0 : (prepared(this.#db, `SELECT count(*) FROM memory_vectors_bit`).pluck().get() as number));
    let [documents, deleted, last] = [0, 0, null as number | null];
    const bySource: Record<string, number> = {};
    for (const r of stored.documents) {
      documents += r.live;
      deleted += r.deleted;
      if (r.lastIndexedAt !== null && (last === null || r.lastIndexedAt > last)) last = r.lastIndexedAt;
      if (r.live > 0) bySource[r.sourceType] = r.live;
    }
    return { counts: { documents, chunks: stored.chunks, vectors: vectorCount, deleted, lastIndexedAt: last }, bySource };
  }

  fileStatuses(state?: FileState): FileStatus[] {
    const rows = prepared(
      this.#db,
      `SELECT path, state, reason, message, updated_at AS updatedAt FROM file_status WHERE ? IS NULL OR state = ? ORDER BY path`,
    ).all(state ?? null, state ?? null) as FileStatus[];
    return rows;
  }

  model(): ModelInfo | null {
    const v = this.#meta('model');
    return v === null ? null : (JSON.parse(v) as ModelInfo);
  }

  chunkerVersion(): string | null {
    return this.#meta('chunker_version');
  }

  schemaVersion(): number {
    return Number(this.#meta('schema_version'));
  }

  /** Counts of rows the tables disagree on; all zero when FTS, vectors, chunks and documents are in step. */
  consistency(): IndexConsistency {
    const one = (sql: string): number => prepared(this.#db, sql).pluck().get() as number;
    const hasVectors = vectorDim(this.#db) !== null;
    return {
      chunksWithoutFts: one(`SELECT count(*) FROM memory_chunks c WHERE NOT EXISTS (SELECT 1 FROM memory_fts f WHERE f.rowid = c.id)`),
      ftsWithoutChunk: one(`SELECT count(*) FROM memory_fts f WHERE NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.id = f.rowid)`),
      ftsStale: one(
        `SELECT count(*) FROM memory_fts f JOIN memory_chunks c ON c.id = f.rowid JOIN memory_documents d ON d.id = c.document_id
         WHERE f.content IS NOT c.content OR f.title IS NOT d.title
            OR f.heading IS NOT ${ftsHeading('c.heading_path')}`,
      ),
      pairsMissing: one(
        `SELECT count(*) FROM memory_chunks c JOIN memory_documents d ON d.id = c.document_id
         WHERE mv_unspaced(c.content, c.heading_path, d.title) AND NOT EXISTS (SELECT 1 FROM memory_fts_bigram f WHERE f.rowid = c.id)`,
      ),
      pairsWithoutChunk: one(
        `SELECT count(*) FROM memory_fts_bigram f WHERE NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.id = f.rowid)`,
      ),
      vectorsWithoutChunk: hasVectors
        ? one(
            `SELECT (SELECT count(*) FROM memory_vectors v WHERE NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.id = v.chunk_id))
                  + (SELECT count(*) FROM memory_vectors_bit v WHERE NOT EXISTS (SELECT 1 FROM memory_chunks c WHERE c.id = v.chunk_id))`,
          )
        : 0,
      vectorPairMismatch: hasVectors
        ? one(
            `SELECT (SELECT count(*) FROM memory_vectors a WHERE NOT EXISTS (SELECT 1 FROM memory_vectors_bit b WHERE b.chunk_id = a.chunk_id))
                  + (SELECT count(*) FROM memory_vectors_bit b WHERE NOT EXISTS (SELECT 1 FROM memory_vectors a WHERE a.chunk_id = b.chunk_id))`,
          )
        : 0,
      chunksOfDeletedDocs: one(
        `SELECT count(*) FROM memory_chunks c JOIN memory_documents d ON d.id = c.document_id WHERE d.deleted_at IS NOT NULL`,
      ),
      countsDrift: one(COUNTS_DRIFT_SQL),
    };
  }

  #meta(key: string): string | null {
    return (prepared(this.#db, `SELECT value FROM meta WHERE key = ?`).pluck().get(key) as string | undefined) ?? null;
  }
}

/** A document's metadata column (JSON text, or NULL for none) as an object. */
export function documentMetadata(text: string | null): Record<string, unknown> {
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/**
 * Who remembered a fact document's copies: `whos` (every copy's author), or, in a document indexed before it was
 * kept, the first copy's `who`.
 */
export function factAuthors(m: Record<string, unknown>): Array<string | null> {
  if (Array.isArray(m['whos'])) return m['whos'].map((w) => (typeof w === 'string' ? w : null));
  return [typeof m['who'] === 'string' ? m['who'] : null];
}
