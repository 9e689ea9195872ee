// Snippets of keyword hits: FTS5's snippet() over a scratch copy of just the hits' text. Asked of memory_fts itself
// (`MATCH ? AND rowid IN (…)`), FTS5 walks every row the query matches to find the few asked for: ~6.5 ms at 100k
// chunks against ~0.7 ms for the copy, with the same text out (same columns and tokenizer, same function). The copy is
// an external-content table over a plain scratch table, filled from the chunk and document rows the search has just
// read for its hits, and emptied with FTS5's delete-all: emptying a table that keeps its own content tokenizes every
// row again. 0.42 against 0.86 ms a search at 100k chunks (25 hits; the same snippets for 400 queries).
import type { Database } from 'better-sqlite3';
import { FTS_TOKENIZER, ftsHeading } from '../store-writer/schema.js';
import { prepared } from '../store-writer/statement-cache.js';

/** FTS5's snippet(): no highlight marks, `…` where text is cut, a window of this many tokens. */
const SNIPPET_TOKENS = 32;
const ready = new WeakSet<Database>();

/** The snippet of each of `ids` (chunks) that `match` finds, by chunk id; a chunk it does not match has none. */
export function keywordSnippets(db: Database, match: string, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  if (!ready.has(db)) {
    // temp tables live with the connection, outside the index file: a read-only connection may create them
    db.exec(`CREATE TABLE IF NOT EXISTS temp.snippet_source(id INTEGER PRIMARY KEY, content, heading, title);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.snippet_text USING fts5(content, heading, title,
        content = 'snippet_source', content_rowid = 'id', tokenize = '${FTS_TOKENIZER}')`);
    ready.add(db);
  }
  // each chunk's columns as memory_fts holds them (its triggers: actors/store-writer/schema.ts)
  prepared(
    db,
    `INSERT INTO temp.snippet_source(id, content, heading, title)
     SELECT c.id, c.content, ${ftsHeading('c.heading_path')}, d.title
     FROM json_each(?) j CROSS JOIN memory_chunks c ON c.id = j.value CROSS JOIN memory_documents d ON d.id = c.document_id`,
  ).run(JSON.stringify(ids));
  try {
    prepared(
      db,
      `INSERT INTO temp.snippet_text(rowid, content, heading, title) SELECT id, content, heading, title FROM temp.snippet_source`,
    ).run();
    const rows = prepared(
      db,
      `SELECT rowid AS id, snippet(snippet_text, 0, '', '', '…', ${SNIPPET_TOKENS}) AS s FROM temp.snippet_text WHERE snippet_text MATCH ?`,
    ).all(match) as Array<{ id: number; s: string }>;
    return new Map(rows.map((r) => [r.id, r.s]));
  } finally {
    prepared(db, `INSERT INTO temp.snippet_text(snippet_text) VALUES ('delete-all')`).run();
    prepared(db, 'DELETE FROM temp.snippet_source').run();
  }
}
