// The keyword thread's side: reads a hybrid search's keyword rows on its own read-only connection to the index, so
// the gateway thread is free for the query's vector pass meanwhile (keyword-thread.ts starts it).
import { parentPort } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { assertNever } from '../../messages/common.js';
import type { FromKeyword, KeywordAsk, ToKeyword } from '../../messages/keyword.js';
import { openIndex } from '../store-writer/schema.js';
import { keywordRows } from './keyword-rows.js';

/**
 * SQLite's page cache here: the FTS pages a keyword search reads (the gateway's own connection keeps the rest). The
 * hot doclists of common words fit; every MiB is resident memory of the daemon.
 */
const CACHE_MIB = 8;

if (!parentPort) throw new Error('keyword-worker.js runs as a worker thread');
const port = parentPort;
let open: { file: string; generation: number; db: Database } | null = null;

/** The connection for the file as of `generation`: reopened after a reindex swapped it. */
function connection(ask: KeywordAsk): Database {
  if (open && open.file === ask.file && open.generation === ask.generation) return open.db;
  open?.db.close();
  open = null;
  open = { file: ask.file, generation: ask.generation, db: openIndex(ask.file, { readonly: true, cacheMiB: CACHE_MIB }) };
  return open.db;
}

function read(id: number, ask: KeywordAsk): FromKeyword {
  try {
    const db = connection(ask);
    const { match, rows } = db.transaction(() => keywordRows(db, ask))();
    const ids = new Float64Array(rows.length);
    const bm25 = new Float64Array(rows.length);
    rows.forEach(([chunk, b], i) => {
      ids[i] = chunk;
      bm25[i] = b;
    });
    return { type: 'keyword.rows', id, generation: ask.generation, match, ids, bm25 };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { type: 'keyword.failed', id, reason: e.code ?? 'keyword_failed', message: e.message };
  }
}

port.on('message', (m: ToKeyword) => {
  switch (m.type) {
    case 'keyword.read': {
      const out = read(m.id, m.ask);
      port.postMessage(out, out.type === 'keyword.rows' ? [out.ids.buffer as ArrayBuffer, out.bm25.buffer as ArrayBuffer] : []);
      return;
    }
    default:
      assertNever(m.type);
  }
});
port.postMessage({ type: 'keyword.ready' } satisfies FromKeyword);
