// Write operations on the index, used only by the store-writer actor: each is one transaction and idempotent.
import type { Database } from 'better-sqlite3';
import type { ModelInfo } from '../../messages/common.js';
import { modelKey } from '../../messages/common.js';
import type { FileState, FileStatusReason, ModelChange, UpsertChunk, UpsertDocument } from '../../messages/store.js';
import { IndexReader } from './index-reader.js';
import { invalidateFactsOf, replaceFacts } from './facts-writer.js';
import { createVectorTables, dropVectorTables, vectorDim } from './schema.js';
import { prepared } from './statement-cache.js';
import { pruneVectorLog } from './vector-log.js';

export interface IndexWriterOptions {
  userId?: string;
  /**
   * The model whose vectors this writer will store: set (via setModel) when given. Null keeps whatever model the
   * index records; vectors are then accepted only if the index has one and their length matches it.
   */
  model: ModelInfo | null;
  chunkerVersion: string;
  now: () => number;
}

interface ExistingChunk {
  id: number;
  seq: number;
  content_hash: string;
  token_count: number;
  heading_path: string;
  start_line: number;
  end_line: number;
  has_vector: number;
}

/** Serialises a vector for sqlite-vec without copying when the array is already a whole buffer. */
function vectorBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export class IndexWriter {
  readonly #db: Database;
  readonly #userId: string;
  readonly #chunkerVersion: string;
  readonly #now: () => number;
  readonly #reader: IndexReader;
  /** The recorded model's dimension (null: none recorded, no vector tables); changes only through setModel. */
  #dim: number | null;

  constructor(db: Database, opts: IndexWriterOptions) {
    if (db.readonly) throw new Error('IndexWriter needs a writable connection');
    this.#db = db;
    this.#userId = opts.userId ?? 'default';
    this.#chunkerVersion = opts.chunkerVersion;
    this.#now = opts.now;
    this.#reader = new IndexReader(db, { userId: this.#userId });
    this.#setMeta('chunker_version', opts.chunkerVersion);
    this.#dim = vectorDim(db);
    if (opts.model) this.setModel(opts.model);
  }

  /** Read access on the same connection (sees this writer's committed and in-flight writes). */
  get reader(): IndexReader {
    return this.#reader;
  }

  /**
   * Insert or replace a document and its chunks. Chunks whose hash is unchanged keep their row, FTS entry and
   * vector (a null vector never erases one that is there); the others are replaced. Revives a soft-deleted row.
   */
  upsertDocument(doc: UpsertDocument): { documentId: number; chunks: number } {
    for (const c of doc.chunks) this.#checkVector(c, doc.sourceId);
    return this.#db
      .transaction(() => {
        const now = this.#now();
        const fields = {
          userId: this.#userId,
          sourceType: doc.sourceType,
          sourceId: doc.sourceId,
          uri: doc.uri ?? null,
          title: doc.title,
          contentHash: doc.contentHash,
          metadata: JSON.stringify(doc.metadata),
          tags: JSON.stringify(doc.tags),
          sensitive: doc.sensitive ? 1 : 0,
          mtimeMs: doc.mtimeMs,
          size: doc.size,
          chunkerVersion: this.#chunkerVersion,
          now,
        };
        // SET expressions see the old row: created_at restarts on revival, updated_at moves only when content changed.
        const documentId = prepared(
          this.#db,
          `INSERT INTO memory_documents (user_id, source_type, source_id, uri, title, content_hash, metadata, tags, sensitive,
           mtime_ms, size, chunker_version, created_at, updated_at, indexed_at)
         VALUES (@userId, @sourceType, @sourceId, @uri, @title, @contentHash, @metadata, @tags, @sensitive,
           @mtimeMs, @size, @chunkerVersion, @now, @now, @now)
         ON CONFLICT (user_id, source_type, source_id) DO UPDATE SET
           uri = excluded.uri, title = excluded.title, content_hash = excluded.content_hash, metadata = excluded.metadata,
           tags = excluded.tags, sensitive = excluded.sensitive, mtime_ms = excluded.mtime_ms, size = excluded.size,
           chunker_version = excluded.chunker_version,
           created_at = CASE WHEN deleted_at IS NOT NULL THEN excluded.created_at ELSE created_at END,
           updated_at = CASE WHEN deleted_at IS NOT NULL OR content_hash IS NOT excluded.content_hash
                             THEN excluded.updated_at ELSE updated_at END,
           indexed_at = excluded.indexed_at, deleted_at = NULL
         RETURNING id`,
        )
          .pluck()
          .get(fields) as number;
        this.#replaceChunks(documentId, doc.chunks);
        if (doc.facts) replaceFacts(this.#db, this.#userId, documentId, doc.title, doc.sourceId, doc.facts, now);
        pruneVectorLog(this.#db);
        return { documentId, chunks: doc.chunks.length };
      })
      .immediate();
  }

  /** Content unchanged (same hash): record the new stat only. False when there is no live document. */
  touchDocument(sourceType: string, sourceId: string, mtimeMs: number, size: number): boolean {
    const r = prepared(
      this.#db,
      `UPDATE memory_documents SET mtime_ms = ?, size = ?
       WHERE user_id = ? AND source_type = ? AND source_id = ? AND deleted_at IS NULL`,
    ).run(mtimeMs, size, this.#userId, sourceType, sourceId);
    return r.changes > 0;
  }

  /** Soft delete: the row stays with deleted_at set; a trigger removes its chunks, FTS rows and vectors. */
  deleteDocument(sourceType: string, sourceId: string): boolean {
    const r = prepared(
      this.#db,
      `UPDATE memory_documents SET deleted_at = ?
       WHERE user_id = ? AND source_type = ? AND source_id = ? AND deleted_at IS NULL`,
    ).run(this.#now(), this.#userId, sourceType, sourceId);
    return r.changes > 0;
  }

  /**
   * Move a live document from `from` to `to` keeping its chunks and vectors (no re-embedding). A row already at
   * `to`, live or soft-deleted, is replaced. `uri` is set to the given value (null when omitted: the old one named
   * the old path). False when `from` has no live document.
   */
  renameDocument(sourceType: string, from: string, to: string, title: string, mtimeMs: number, size: number, uri?: string): boolean {
    return this.#db
      .transaction(() => {
        const src = prepared(
          this.#db,
          `SELECT id FROM memory_documents WHERE user_id = ? AND source_type = ? AND source_id = ? AND deleted_at IS NULL`,
        ).get(this.#userId, sourceType, from) as { id: number } | undefined;
        if (!src) return false;
        if (from !== to) {
          const replaced = prepared(this.#db, `SELECT id FROM memory_documents WHERE user_id = ? AND source_type = ? AND source_id = ?`)
            .pluck()
            .get(this.#userId, sourceType, to) as number | undefined;
          if (replaced !== undefined) invalidateFactsOf(this.#db, replaced, this.#now());
          prepared(this.#db, `DELETE FROM memory_documents WHERE user_id = ? AND source_type = ? AND source_id = ?`).run(
            this.#userId,
            sourceType,
            to,
          );
        }
        prepared(
          this.#db,
          `UPDATE memory_documents SET source_id = ?, title = ?, mtime_ms = ?, size = ?, uri = ?, indexed_at = ? WHERE id = ?`,
        ).run(to, title, mtimeMs, size, uri ?? null, this.#now(), src.id);
        return true;
      })
      .immediate();
  }

  /**
   * Removes a document for good: its chunks (and with them, by trigger, their FTS and vector rows), then the row.
   * For episodes and facts, whose source is the journal or the fact log: nothing is kept for reconcile.
   */
  hardDeleteDocument(sourceType: string, sourceId: string): boolean {
    const id = prepared(this.#db, `SELECT id FROM memory_documents WHERE user_id = ? AND source_type = ? AND source_id = ?`)
      .pluck()
      .get(this.#userId, sourceType, sourceId) as number | undefined;
    if (id === undefined) return false;
    invalidateFactsOf(this.#db, id, this.#now());
    prepared(this.#db, `DELETE FROM memory_chunks WHERE document_id = ?`).run(id);
    prepared(this.#db, `DELETE FROM memory_documents WHERE id = ?`).run(id);
    return true;
  }

  /** Runs `fn` in one immediate transaction (the writer's own operations inside it become savepoints). */
  inTransaction<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }

  /** Sets (or with null, removes) a `meta` row: the journal checkpoint, a fact log's last-seen stat. */
  setMeta(key: string, value: string | null): void {
    if (value === null) prepared(this.#db, `DELETE FROM meta WHERE key = ?`).run(key);
    else this.#setMeta(key, value);
  }

  setFileStatus(path: string, state: FileState, reason?: FileStatusReason, message?: string): void {
    prepared(
      this.#db,
      `INSERT INTO file_status (path, state, reason, message, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET state = excluded.state, reason = excluded.reason, message = excluded.message,
         updated_at = excluded.updated_at`,
    ).run(path, state, reason ?? null, message ?? null, this.#now());
  }

  clearFileStatus(path: string): boolean {
    return prepared(this.#db, `DELETE FROM file_status WHERE path = ?`).run(path).changes > 0;
  }

  /** A renamed note's status goes with it (the same bytes: the same warning), replacing any at `to`. */
  moveFileStatus(from: string, to: string): void {
    this.#db.transaction(() => {
      prepared(this.#db, `DELETE FROM file_status WHERE path = ?`).run(to);
      prepared(this.#db, `UPDATE file_status SET path = ? WHERE path = ?`).run(to, from);
    })();
  }

  /**
   * Use `model` for the vectors written from now on. If the index holds vectors of another model (or none yet)
   * the vector tables are (re)created for its dimension and old vectors dropped: vectors of two models never mix.
   * The caller re-embeds (re-upserts) documents to fill them again; `reader.documentsMissingVectors` lists them.
   */
  setModel(model: ModelInfo): ModelChange {
    return this.#db
      .transaction((): ModelChange => {
        const stored = this.#reader.model();
        if (stored && modelKey(stored) === modelKey(model) && vectorDim(this.#db) === model.dim) {
          return { changed: false, droppedVectors: 0 };
        }
        const droppedVectors = dropVectorTables(this.#db);
        createVectorTables(this.#db, model.dim);
        this.#setMeta('model', JSON.stringify(model));
        this.#dim = model.dim;
        return { changed: true, droppedVectors };
      })
      .immediate();
  }

  /** The model of the stored vectors (may be set while this writer has none available). */
  model(): ModelInfo | null {
    return this.#reader.model();
  }

  chunkerVersion(): string | null {
    return this.#reader.chunkerVersion();
  }

  #checkVector(c: UpsertChunk, sourceId: string): void {
    if (c.vector === null) return;
    if (this.#dim === null)
      throw new Error(`chunk ${c.seq} of ${sourceId} has a vector but the index records no model: call setModel first`);
    if (c.vector.length !== this.#dim) {
      throw new Error(`chunk ${c.seq} of ${sourceId} has a vector of ${c.vector.length} floats, the index's model needs ${this.#dim}`);
    }
  }

  /** Diff the stored chunks against `chunks` by content hash: keep matches in place, delete and insert the rest. */
  #replaceChunks(documentId: number, chunks: UpsertChunk[]): void {
    const hasVectors = this.#dim !== null;
    const existing = prepared(
      this.#db,
      hasVectors
        ? `SELECT c.id, c.seq, c.content_hash, c.token_count, c.heading_path, c.start_line, c.end_line,
             EXISTS (SELECT 1 FROM memory_vectors v WHERE v.chunk_id = c.id) AS has_vector
           FROM memory_chunks c WHERE c.document_id = ? ORDER BY c.seq, c.id`
        : `SELECT id, seq, content_hash, token_count, heading_path, start_line, end_line, 0 AS has_vector
           FROM memory_chunks WHERE document_id = ? ORDER BY seq, id`,
    ).all(documentId) as ExistingChunk[];

    const byHash = new Map<string, ExistingChunk[]>();
    for (const e of existing) {
      const list = byHash.get(e.content_hash);
      if (list) list.push(e);
      else byHash.set(e.content_hash, [e]);
    }
    const kept: Array<[ExistingChunk, UpsertChunk]> = [];
    const added: UpsertChunk[] = [];
    for (const c of chunks) {
      const match = byHash.get(c.hash)?.shift();
      if (match) kept.push([match, c]);
      else added.push(c);
    }
    const keptIds = new Set(kept.map(([e]) => e.id));
    const del = prepared(this.#db, `DELETE FROM memory_chunks WHERE id = ?`);
    for (const e of existing) if (!keptIds.has(e.id)) del.run(e.id);

    const upd = prepared(
      this.#db,
      `UPDATE memory_chunks SET seq = ?, token_count = ?, heading_path = ?, start_line = ?, end_line = ? WHERE id = ?`,
    );
    for (const [e, c] of kept) {
      const headingPath = JSON.stringify(c.headingPath);
      if (
        e.seq !== c.seq ||
        e.token_count !== c.tokenCount ||
        e.heading_path !== headingPath ||
        e.start_line !== c.startLine ||
        e.end_line !== c.endLine
      ) {
        upd.run(c.seq, c.tokenCount, headingPath, c.startLine, c.endLine, e.id);
      }
      if (c.vector && !e.has_vector) this.#insertVector(e.id, c.vector);
    }

    const ins = prepared(
      this.#db,
      `INSERT INTO memory_chunks (document_id, seq, content, token_count, heading_path, start_line, end_line, content_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const c of added) {
      const r = ins.run(documentId, c.seq, c.content, c.tokenCount, JSON.stringify(c.headingPath), c.startLine, c.endLine, c.hash);
      if (c.vector) this.#insertVector(Number(r.lastInsertRowid), c.vector);
    }
  }

  #insertVector(chunkId: number, vector: Float32Array): void {
    const blob = vectorBlob(vector);
    prepared(this.#db, `INSERT INTO memory_vectors (chunk_id, embedding) VALUES (?, ?)`).run(chunkId, blob);
    prepared(
      this.#db,
      `INSERT INTO memory_vectors_bit (chunk_id, embedding, codes) VALUES (@id, vec_quantize_binary(@v), mv_nibbles(@v))`,
    ).run({ id: chunkId, v: blob });
  }

  #setMeta(key: string, value: string): void {
    prepared(this.#db, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value);
  }
}
