// The store writer's handler: applies one StoreMsg through the IndexWriter and says which paths are done.
// Vectors are written only when they come from the model that built the index; otherwise the note is stored
// keyword-only and the mismatch is reported (vectors of different models never mix).
import path from 'node:path';
import { assertNever, modelKey, SOURCE_VAULT, type ModelInfo } from '../../messages/common.js';
import type { StoreMsg } from '../../messages/to-store.js';
import type { WatcherMsg } from '../../messages/to-watcher.js';
import type { IndexWriter } from './index-writer.js';
import type { IndexReader } from './index-reader.js';
import { applyEpisodeBatch, type EpisodesApplied } from './episodes.js';

export interface ApplyOutcome {
  done: Array<Extract<WatcherMsg, { type: 'watcher.done' }>>;
  chunks: number;
  /** set once, the first time a note's vectors were dropped because the index was built by another model */
  mismatch: string | null;
  /** A projection batch of the memory actor was applied (its id, and what it did). */
  episodes?: EpisodesApplied & { batch: number };
}

type Applied = Exclude<StoreMsg, { type: 'store.swap_index' | 'store.reopen_index' | 'store.prune_episodes' }>;

export class StoreApplier {
  #mismatchReported = false;
  constructor(
    readonly writer: IndexWriter,
    readonly reader: IndexReader,
    /** Wall clock, epoch ms (ingest → searchable latency of episodes). */
    readonly wallNow: () => number = Date.now,
  ) {}

  #vectorsAllowed(model: ModelInfo | null): { ok: boolean; mismatch: string | null } {
    if (!model) return { ok: false, mismatch: null };
    const stored = this.reader.model();
    if (!stored && this.reader.counts().vectors === 0) {
      this.writer.setModel(model); // a fresh index adopts the configured model
      return { ok: true, mismatch: null };
    }
    if (stored && modelKey(stored) === modelKey(model)) return { ok: true, mismatch: null };
    const first = !this.#mismatchReported;
    this.#mismatchReported = true;
    const what = stored ? modelKey(stored) : 'an unrecorded model';
    return { ok: false, mismatch: first ? `index built with ${what}, configured ${modelKey(model)}` : null };
  }

  /**
   * Applies `msg` in one transaction: a note and its file status (and a fresh index's model with the first vectors)
   * change together or not at all, so a crash between them cannot leave a status that contradicts the row.
   */
  apply(msg: Applied): ApplyOutcome {
    return this.writer.inTransaction(() => this.#apply(msg));
  }

  #apply(msg: Applied): ApplyOutcome {
    switch (msg.type) {
      case 'store.upsert': {
        const n = msg.note;
        const allowed = this.#vectorsAllowed(msg.model);
        const r = this.writer.upsertDocument({
          sourceType: SOURCE_VAULT,
          sourceId: n.path,
          uri: n.path,
          title: n.title,
          contentHash: n.contentHash,
          mtimeMs: msg.mtimeMs,
          size: msg.size,
          metadata: { frontmatter: n.frontmatter, links: n.links, frontmatterError: n.frontmatterError ?? null },
          tags: n.tags,
          sensitive: n.sensitive,
          chunks: n.chunks.map((c) => ({ ...c, vector: allowed.ok ? c.vector : null })),
          facts: n.facts,
        });
        if (n.frontmatterError) this.writer.setFileStatus(n.path, 'indexed', 'frontmatter_invalid', n.frontmatterError);
        else this.writer.clearFileStatus(n.path);
        return {
          done: [
            {
              type: 'watcher.done',
              path: n.path,
              outcome: 'indexed',
              state: { mtimeMs: msg.mtimeMs, size: msg.size, contentHash: n.contentHash },
            },
          ],
          chunks: r.chunks,
          mismatch: allowed.mismatch,
        };
      }
      case 'store.touch': {
        // the chunker skipped unchanged bytes against the hash the watcher knew; with no live row to touch (the
        // index lost it meanwhile) the note would silently stay out of the index: send the watcher to look again
        if (!this.writer.touchDocument(SOURCE_VAULT, msg.path, msg.mtimeMs, msg.size))
          return { done: [{ type: 'watcher.done', path: msg.path, outcome: 'stale', state: null }], chunks: 0, mismatch: null };
        return {
          done: [
            {
              type: 'watcher.done',
              path: msg.path,
              outcome: 'unchanged',
              state: { mtimeMs: msg.mtimeMs, size: msg.size, contentHash: msg.contentHash },
            },
          ],
          chunks: 0,
          mismatch: null,
        };
      }
      case 'store.delete': {
        this.writer.deleteDocument(SOURCE_VAULT, msg.path);
        this.writer.clearFileStatus(msg.path);
        return { done: [{ type: 'watcher.done', path: msg.path, outcome: 'deleted', state: null }], chunks: 0, mismatch: null };
      }
      case 'store.rename': {
        const before = this.reader.document(SOURCE_VAULT, msg.from);
        const fmTitle = before?.frontmatter?.title;
        const title = typeof fmTitle === 'string' && fmTitle.trim() ? fmTitle : path.posix.basename(msg.to).replace(/\.md$/i, '');
        const moved = this.writer.renameDocument(SOURCE_VAULT, msg.from, msg.to, title, msg.mtimeMs, msg.size);
        // moved: `to` is not read again, so a warning about its bytes (frontmatter_invalid) moves with it
        if (moved) this.writer.moveFileStatus(msg.from, msg.to);
        else this.writer.clearFileStatus(msg.from);
        const state = moved && before ? { mtimeMs: msg.mtimeMs, size: msg.size, contentHash: before.contentHash } : null;
        return {
          done: [
            { type: 'watcher.done', path: msg.from, outcome: 'renamed', state: null },
            // state null (the source row had vanished) leaves `to` unindexed, so the watcher parses it normally
            { type: 'watcher.done', path: msg.to, outcome: 'renamed', state },
          ],
          chunks: 0,
          mismatch: null,
        };
      }
      case 'store.episodes': {
        const allowed = msg.batch.upserts.some((d) => d.chunks.some((c) => c.vector !== null))
          ? this.#vectorsAllowed(msg.batch.model)
          : { ok: false, mismatch: null };
        const r = applyEpisodeBatch(this.writer, msg.batch, allowed.ok, this.wallNow());
        return { done: [], chunks: r.chunks, mismatch: allowed.mismatch, episodes: { ...r, batch: msg.batch.id } };
      }
      case 'store.file_failed': {
        this.writer.setFileStatus(msg.path, 'failed', msg.reason, msg.message);
        return { done: [{ type: 'watcher.done', path: msg.path, outcome: 'failed', state: null }], chunks: 0, mismatch: null };
      }
      default:
        return assertNever(msg);
    }
  }
}
