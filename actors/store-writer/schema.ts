// Opens the SQLite index (WAL, sqlite-vec) and creates or migrates its schema; triggers keep FTS and vectors in step.
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { forgetPrepared, prepared } from './statement-cache.js';
import { createFactsV4 } from './facts-schema.js';
import { createCountsV6 } from './index-counts.js';
import { nibbleCodesOfBlob, nibbleRowBytes } from './nibble-codes.js';
import { bigramText, hasUnspaced } from './unspaced-scripts.js';
import { VECTOR_LOG_RESET_SQL, VECTOR_LOG_SQL, VECTOR_LOG_TRIGGERS_SQL } from './vector-log.js';

/** The schema this code writes; stored in `PRAGMA user_version` and in meta `schema_version`. */
export const SCHEMA_VERSION = 6;
/** How memory_fts and memory_fts_bigram split and fold text (the snippets' scratch table tokenizes the same way). */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * The `heading` column of the full-text tables for a chunk whose heading path (a JSON array) is `pathColumn`: the
 * headings joined by ` / `. The triggers write it; the consistency check and the snippets' scratch copy compare with
 * it or rebuild it, so it has this one definition.
 */
export function ftsHeading(pathColumn: string): string {
  return `(SELECT group_concat(value, ' / ') FROM json_each(${pathColumn}))`;
}

export class IndexOpenError extends Error {
  constructor(
    readonly code: 'index_missing' | 'index_too_new' | 'index_too_old',
    message: string,
  ) {
    super(message);
    this.name = 'IndexOpenError';
  }
}

export { isDamagedIndex } from './damaged-index.js';

/**
 * Open the index at `file`. A writable open creates the file and migrates the schema; a read-only open
 * needs a migrated file and works beside a writer (WAL), never blocking it.
 */
export function openIndex(file: string, opts: { readonly: boolean; cacheMiB?: number }): Database {
  const db = new BetterSqlite3(file, opts.readonly ? { readonly: true, fileMustExist: true } : {});
  try {
    sqliteVec.load(db);
    // The bigram FTS triggers call these: every connection that can write chunks must have them.
    db.function('mv_unspaced', { deterministic: true, varargs: true }, (...texts: unknown[]) =>
      texts.some((t) => hasUnspaced(t as string | null)) ? 1 : 0,
    );
    db.function('mv_bigrams', { deterministic: true }, (text: unknown) => bigramText(text as string | null));
    // The writer stores each vector's 4-bit codes with its bits, and the v5 migration fills them in, with this.
    db.function('mv_nibbles', { deterministic: true }, (blob: unknown) => nibbleCodesOfBlob(blob as Buffer));
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY');
    // Search connections default to 64 MiB of pages: at 100k chunks hot FTS pages and re-scored float vectors stay
    // cached (when the bit vectors were still read through it, ~20% faster vector search than with 16 MiB; mmap
    // measured no faster, and would inflate RSS). The gateway loads its bits and codes through a small cache.
    // Connections that only look rows up by key pass less: every MiB here is resident memory of the daemon.
    db.pragma(`cache_size = -${Math.round((opts.cacheMiB ?? 64) * 1024)}`);
    if (opts.readonly) {
      checkVersion(db, file);
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db, file);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function checkVersion(db: Database, file: string): void {
  const v = userVersion(db);
  if (v === 0) throw new IndexOpenError('index_missing', `${file} has no index yet: start the daemon once to create it`);
  if (v > SCHEMA_VERSION) {
    throw new IndexOpenError('index_too_new', `${file} has schema ${v}, this memvault knows ${SCHEMA_VERSION}: upgrade memvault`);
  }
  if (v < SCHEMA_VERSION) {
    throw new IndexOpenError('index_too_old', `${file} has schema ${v}: start the daemon once to migrate it`);
  }
}

/** MIGRATIONS[i] takes the schema from version i to i + 1. */
const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [createV1, createV2, createV3, createFactsV4, createV5, createCountsV6];

function migrate(db: Database, file: string): void {
  const from = userVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new IndexOpenError('index_too_new', `${file} has schema ${from}, this memvault knows ${SCHEMA_VERSION}: upgrade memvault`);
  }
  if (from === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = from; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
    db.prepare(`INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      String(SCHEMA_VERSION),
    );
    db.prepare(`INSERT OR IGNORE INTO meta(key, value) VALUES ('created_at', ?)`).run(String(Date.now()));
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

function createV1(db: Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE memory_documents (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL DEFAULT 'default',
      source_type TEXT NOT NULL,
      source_id TEXT NOT NULL,
      uri TEXT,
      title TEXT,
      content_hash TEXT NOT NULL,
      metadata TEXT,
      tags TEXT,
      sensitive INTEGER NOT NULL DEFAULT 0,
      mtime_ms REAL,
      size INTEGER,
      chunker_version TEXT,
      created_at INTEGER,
      updated_at INTEGER,
      indexed_at INTEGER,
      deleted_at INTEGER,
      UNIQUE (user_id, source_type, source_id)
    );

    -- AUTOINCREMENT: a chunk id is never reused, so a hit a reader holds can never name another chunk later.
    CREATE TABLE memory_chunks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      document_id INTEGER NOT NULL REFERENCES memory_documents(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      content TEXT NOT NULL,
      token_count INTEGER NOT NULL,
      heading_path TEXT NOT NULL,
      start_line INTEGER NOT NULL,
      end_line INTEGER NOT NULL,
      content_hash TEXT NOT NULL
    );
    CREATE INDEX memory_chunks_document ON memory_chunks(document_id, seq);
    CREATE INDEX memory_chunks_hash ON memory_chunks(content_hash);

    -- A full-text copy of each chunk with its heading path and its document's title, keyed by chunk id.
    CREATE VIRTUAL TABLE memory_fts USING fts5(
      content, heading, title,
      tokenize = '${FTS_TOKENIZER}'
    );

    CREATE TABLE file_status (
      path TEXT PRIMARY KEY,
      state TEXT NOT NULL CHECK (state IN ('indexed', 'skipped', 'failed')),
      reason TEXT,
      message TEXT,
      updated_at INTEGER
    );

    -- The triggers below are the only code that writes memory_fts: whatever writes chunks, FTS cannot drift.
    CREATE TRIGGER memory_chunks_guard BEFORE INSERT ON memory_chunks
    WHEN (SELECT deleted_at FROM memory_documents WHERE id = new.document_id) IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'chunk for a deleted document'); END;

    CREATE TRIGGER memory_chunks_fts_ai AFTER INSERT ON memory_chunks BEGIN
      INSERT INTO memory_fts(rowid, content, heading, title) VALUES (
        new.id, new.content,
        ${ftsHeading('new.heading_path')},
        (SELECT title FROM memory_documents WHERE id = new.document_id));
    END;

    CREATE TRIGGER memory_chunks_fts_ad AFTER DELETE ON memory_chunks BEGIN
      DELETE FROM memory_fts WHERE rowid = old.id;
    END;

    CREATE TRIGGER memory_chunks_fts_au AFTER UPDATE OF id, document_id, content, heading_path ON memory_chunks BEGIN
      DELETE FROM memory_fts WHERE rowid = old.id;
      INSERT INTO memory_fts(rowid, content, heading, title) VALUES (
        new.id, new.content,
        ${ftsHeading('new.heading_path')},
        (SELECT title FROM memory_documents WHERE id = new.document_id));
    END;

    CREATE TRIGGER memory_documents_title_au AFTER UPDATE OF title ON memory_documents
    WHEN new.title IS NOT old.title BEGIN
      UPDATE memory_fts SET title = new.title
      WHERE rowid IN (SELECT id FROM memory_chunks WHERE document_id = new.id);
    END;

    -- Soft delete: the row stays (for status and reconcile), its chunks go, and with them FTS and vector rows.
    CREATE TRIGGER memory_documents_soft_delete AFTER UPDATE OF deleted_at ON memory_documents
    WHEN new.deleted_at IS NOT NULL BEGIN
      DELETE FROM memory_chunks WHERE document_id = new.id;
    END;
  `);
}

/**
 * v2: a second full-text table for chunks holding Chinese, Japanese, Korean, Thai, Khmer, Lao or Myanmar text,
 * with those runs stored as character pairs (unspaced-scripts.ts); queries in such scripts search it instead of
 * memory_fts. Only such chunks are copied, so a vault without them pays nothing.
 */
function createV2(db: Database): void {
  const row = (c: string, doc: string) => `${c}.id, mv_bigrams(${c}.content),
        mv_bigrams(${ftsHeading(`${c}.heading_path`)}),
        mv_bigrams((SELECT title FROM memory_documents WHERE id = ${doc}))`;
  const when = (c: string, doc: string) =>
    `mv_unspaced(${c}.content, ${c}.heading_path, (SELECT title FROM memory_documents WHERE id = ${doc}))`;
  db.exec(`
    CREATE VIRTUAL TABLE memory_fts_bigram USING fts5(
      content, heading, title,
      tokenize = '${FTS_TOKENIZER}'
    );

    CREATE TRIGGER memory_chunks_fts_bigram_ai AFTER INSERT ON memory_chunks
    WHEN ${when('new', 'new.document_id')} BEGIN
      INSERT INTO memory_fts_bigram(rowid, content, heading, title) VALUES (${row('new', 'new.document_id')});
    END;

    CREATE TRIGGER memory_chunks_fts_bigram_ad AFTER DELETE ON memory_chunks BEGIN
      DELETE FROM memory_fts_bigram WHERE rowid = old.id;
    END;

    CREATE TRIGGER memory_chunks_fts_bigram_au AFTER UPDATE OF id, document_id, content, heading_path ON memory_chunks BEGIN
      DELETE FROM memory_fts_bigram WHERE rowid = old.id;
      INSERT INTO memory_fts_bigram(rowid, content, heading, title)
        SELECT ${row('new', 'new.document_id')} WHERE ${when('new', 'new.document_id')};
    END;

    CREATE TRIGGER memory_documents_title_bigram_au AFTER UPDATE OF title ON memory_documents
    WHEN new.title IS NOT old.title BEGIN
      DELETE FROM memory_fts_bigram WHERE rowid IN (SELECT id FROM memory_chunks WHERE document_id = new.id);
      INSERT INTO memory_fts_bigram(rowid, content, heading, title)
        SELECT ${row('c', 'c.document_id')} FROM memory_chunks c WHERE c.document_id = new.id AND ${when('c', 'c.document_id')};
    END;

    INSERT INTO memory_fts_bigram(rowid, content, heading, title)
      SELECT ${row('c', 'c.document_id')} FROM memory_chunks c WHERE ${when('c', 'c.document_id')};
  `);
}

/**
 * v3: vectors move from sqlite-vec's vec0 tables to plain tables keyed by chunk id, and a vector log (vector-log.ts)
 * lets readers keep the bits in memory. Searches no longer use vec0's KNN (the gateway scans the bits itself), and a
 * vec0 point lookup walked its chunk's overflow pages: ~70 µs a vector against ~5 µs from a plain row (100k × 512).
 */
function createV3(db: Database): void {
  db.exec(VECTOR_LOG_SQL);
  const dim = vectorDim(db);
  if (dim === null) return;
  // vec0 tables cannot be renamed (their shadow tables keep the old name): copy into new ones, then drop them
  db.exec(`
    DROP TRIGGER memory_chunks_vec_ad;
    CREATE TABLE memory_vectors_v3 (
      chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL CHECK (length(embedding) = ${dim * 4}));
    CREATE TABLE memory_vectors_bit_v3 (
      chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL CHECK (length(embedding) = ${dim / 8}));
    INSERT INTO memory_vectors_v3 (chunk_id, embedding) SELECT chunk_id, embedding FROM memory_vectors;
    INSERT INTO memory_vectors_bit_v3 (chunk_id, embedding) SELECT chunk_id, embedding FROM memory_vectors_bit;
    DROP TABLE memory_vectors;
    DROP TABLE memory_vectors_bit;
    ALTER TABLE memory_vectors_v3 RENAME TO memory_vectors;
    ALTER TABLE memory_vectors_bit_v3 RENAME TO memory_vectors_bit;
    ${VECTOR_TRIGGERS_SQL}
  `);
  forgetPrepared(db);
}

/**
 * v5: each vector's 4-bit codes and scale (nibble-codes.ts) are stored with its sign bits, computed here from the
 * float vectors. The gateway orders the sign bits' candidates by them and reads far fewer float vectors back.
 */
function createV5(db: Database): void {
  const dim = vectorDim(db);
  if (dim === null) return;
  db.exec(`
    DROP TRIGGER memory_chunks_vec_ad;
    ${bitTableSql(dim, '_v5')}
    INSERT INTO memory_vectors_bit_v5 (chunk_id, embedding, codes)
      SELECT b.chunk_id, b.embedding, mv_nibbles(v.embedding) FROM memory_vectors_bit b JOIN memory_vectors v USING (chunk_id);
    DROP TABLE memory_vectors_bit;
    ALTER TABLE memory_vectors_bit_v5 RENAME TO memory_vectors_bit;
    ${VECTOR_TRIGGERS_SQL}
    ${VECTOR_LOG_RESET_SQL}
  `);
  forgetPrepared(db);
}

/** Dimension of the vector tables, or null when none exist (no model has been set: keyword-only). */
export function vectorDim(db: Database): number | null {
  const v = prepared(db, `SELECT value FROM meta WHERE key = 'vector_dim'`).pluck().get() as string | undefined;
  return v === undefined ? null : Number(v);
}

/**
 * Create the tables for vectors of `dim` floats (float32 little-endian, as sqlite-vec reads them) and their sign
 * bits and 4-bit codes (the gateway's coarse pass and its re-rank), and the trigger that drops a chunk's vectors
 * with the chunk. Called by the writer when a model is first set or changes.
 */
export function createVectorTables(db: Database, dim: number): void {
  if (!Number.isInteger(dim) || dim <= 0 || dim % 8 !== 0) {
    throw new Error(`vector dim must be a positive multiple of 8 (bit quantization packs 8 per byte), got ${dim}`);
  }
  db.exec(`${vectorTablesSql(dim)} ${VECTOR_TRIGGERS_SQL}`);
  db.prepare(`INSERT INTO meta(key, value) VALUES ('vector_dim', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
    String(dim),
  );
}

function vectorTablesSql(dim: number): string {
  return `
    CREATE TABLE memory_vectors (
      chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL CHECK (length(embedding) = ${dim * 4}));
    ${bitTableSql(dim, '')}`;
}

/** The sign bits (vec_quantize_binary) and the 4-bit codes with their scale (mv_nibbles) of each vector. */
function bitTableSql(dim: number, suffix: string): string {
  return `
    CREATE TABLE memory_vectors_bit${suffix} (
      chunk_id INTEGER PRIMARY KEY,
      embedding BLOB NOT NULL CHECK (length(embedding) = ${dim / 8}),
      codes BLOB NOT NULL CHECK (length(codes) = ${nibbleRowBytes(dim)}));`;
}

/** A chunk's vectors go with it; the vector log hears of every change to the bits. */
const VECTOR_TRIGGERS_SQL = `
  CREATE TRIGGER memory_chunks_vec_ad AFTER DELETE ON memory_chunks BEGIN
    DELETE FROM memory_vectors WHERE chunk_id = old.id;
    DELETE FROM memory_vectors_bit WHERE chunk_id = old.id;
  END;
  ${VECTOR_LOG_TRIGGERS_SQL}`;

/** Drop every vector (they came from another model). Returns how many float vectors there were. */
export function dropVectorTables(db: Database): number {
  if (vectorDim(db) === null) return 0;
  const n = (db.prepare(`SELECT count(*) AS n FROM memory_vectors`).get() as { n: number }).n;
  db.exec(`
    DROP TRIGGER IF EXISTS memory_chunks_vec_ad;
    DROP TABLE IF EXISTS memory_vectors;
    DROP TABLE IF EXISTS memory_vectors_bit;
    DELETE FROM meta WHERE key = 'vector_dim';
    ${VECTOR_LOG_RESET_SQL}
  `);
  forgetPrepared(db);
  return n;
}
