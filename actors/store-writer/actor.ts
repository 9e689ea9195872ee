// The store-writer actor: the one owner of the index's write connection; applies every mutation in a transaction.
import { Counter } from 'prom-client';
import type Database from 'better-sqlite3';
import { runActor } from '../runtime/worker.js';
import { boot } from '../common/boot.js';
import type { StoreMsg } from '../../messages/to-store.js';
import type { WatcherMsg } from '../../messages/to-watcher.js';
import type { MainMsg } from '../../messages/to-main.js';
import { openIndex } from './schema.js';
import { IndexWriter } from './index-writer.js';
import { IndexReader } from './index-reader.js';
import { StoreApplier } from './apply.js';
import { CHUNKER_VERSION } from '../chunker/version.js';
import { swapIndexFiles } from './swap.js';

const { b, board, log } = boot();

const files = new Counter<'outcome'>({ name: 'memvault_files_indexed_total', help: 'Files finished by the store writer, by outcome', labelNames: ['outcome'] });
const chunks = new Counter({ name: 'memvault_chunks_indexed_total', help: 'Chunks written to the index' });

interface State {
  db: Database.Database;
  applier: StoreApplier;
}

function open(): State {
  const db = openIndex(b.dbFile, { readonly: false, cacheMiB: 16 });
  const writer = new IndexWriter(db, { userId: b.config.user_id, model: null, chunkerVersion: CHUNKER_VERSION, now: Date.now });
  return { db, applier: new StoreApplier(writer, new IndexReader(db)) };
}

runActor<StoreMsg, WatcherMsg | MainMsg, State>(
  (msg, ctx) => {
    if (msg.type === 'store.swap_index') {
      ctx.state.db.close();
      swapIndexFiles(msg.next, b.dbFile);
      Object.assign(ctx.state, open());
      board.add('indexGeneration', 1);
      log.event('index_swapped', { file: b.dbFile });
      ctx.emit({ type: 'watcher.rescan', reason: 'index swapped' });
      ctx.emit({ type: 'main.index_swapped', requestId: msg.requestId });
      return;
    }
    const out = ctx.state.applier.apply(msg);
    board.set('lastIndexedAt', Date.now());
    board.add('storeWrites', 1);
    board.add('chunksIndexed', out.chunks);
    chunks.inc(out.chunks);
    if (out.mismatch) log.event('model_mismatch', { detail: out.mismatch }, 'vectors not stored: run `memvault reindex` to rebuild with the configured model');
    for (const d of out.done) {
      files.inc({ outcome: d.outcome });
      if (d.outcome === 'indexed') log.event('memory_ingest', { path: d.path, chunks: out.chunks });
      else if (d.outcome === 'failed' && msg.type === 'store.file_failed')
        log.event('memory_ingest_failed', { path: d.path, reason: msg.reason, detail: msg.message });
      else if (d.outcome === 'deleted') log.event('memory_delete', { path: d.path });
      else if (d.outcome === 'renamed' && msg.type === 'store.rename' && d.path === msg.to) log.event('memory_rename', { from: msg.from, to: msg.to });
      ctx.emit(d);
    }
  },
  () => open(),
);
