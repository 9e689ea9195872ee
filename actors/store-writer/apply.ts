// The store writer's handler: applies one StoreMsg through the IndexWriter and says which paths are done.
// Vectors are written only when they come from the model that built the index; otherwise the note is stored
// keyword-only and the mismatch is reported (vectors of different models never mix).
import path from 'node:path';
import { assertNever, modelKey, SOURCE_VAULT, type ModelInfo, type VaultPath } from '../../messages/common.js';
import type { StoreMsg } from '../../messages/to-store.js';
import type { WatcherMsg } from '../../messages/to-watcher.js';
import type { IndexWriter } from './index-writer.js';
import type { IndexReader } from './index-reader.js';
import { applyEpisodeBatch, type EpisodesApplied } from './episodes.js';

export interface ApplyOutcome {
  done: Done[];
  chunks: number;
  /** set once, the first time a note's vectors were dropped because the index was built by another model */
  mismatch: string | null;
  /** A projection batch of the memory actor was applied (its id, and what it did). */
  episodes?: EpisodesApplied & { batch: number };
}

type Applied = Exclude<StoreMsg, { type: 'store.swap_index' | 'store.reopen_index' | 'store.prune_episodes' }>;
type Done = Extract<WatcherMsg, { type: 'watcher.done' }>;

/**
 * The vault paths a message is about, in the order its `watcher.done` list names them: the watcher holds each in
 * flight until it is told, so every way a message ends — applied, or dropped (`failedDone`) — names these.
 */
function messagePaths(msg: StoreMsg): VaultPath[] {
  switch (msg.type) {
    case 'store.upsert':
      return [msg.note.path];
    case 'store.touch':
    case 'store.delete':
    case 'store.file_failed':
      return [msg.path];
    case 'store.rename':
      return [msg.from, msg.to];
    case 'store.episodes':
    case 'store.swap_index':
    case 'store.reopen_index':
    case 'store.prune_episodes':
      return [];
    default:
      return assertNever(msg);
  }
}

/** `watcher.done` for each of `msg`'s paths with `outcome`, the n-th path with the n-th of `states` (null past them). */
function doneFor(msg: StoreMsg, outcome: Done['outcome'], ...states: Array<Done['state']>): Done[] {
  return messagePaths(msg).map((path, i) => ({ type: 'watcher.done', path, outcome, state: states[i] ?? null }));
}

/** What a message dropped unapplied tells the watcher: each of its paths failed (released, to be sent again). */
export function failedDone(msg: StoreMsg): Done[] {
  return doneFor(msg, 'failed');
}

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
          done: doneFor(msg, 'indexed', { mtimeMs: msg.mtimeMs, size: msg.size, contentHash: n.contentHash }),
          chunks: r.chunks,
          mismatch: allowed.mismatch,
        };
      }
      case 'store.touch': {
        // the chunker skipped unchanged bytes against the hash the watcher knew; with no live row to touch (the
        // index lost it meanwhile) the note would silently stay out of the index: send the watcher to look again
        if (!this.writer.touchDocument(SOURCE_VAULT, msg.path, msg.mtimeMs, msg.size))
          return { done: doneFor(msg, 'stale'), chunks: 0, mismatch: null };
        return {
          done: doneFor(msg, 'unchanged', { mtimeMs: msg.mtimeMs, size: msg.size, contentHash: msg.contentHash }),
          chunks: 0,
          mismatch: null,
        };
      }
      case 'store.delete': {
        this.writer.deleteDocument(SOURCE_VAULT, msg.path);
        this.writer.clearFileStatus(msg.path);
        return { done: doneFor(msg, 'deleted'), chunks: 0, mismatch: null };
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
          // `from`'s state null; `to`'s null too when the source row had vanished: the watcher parses it normally
          done: doneFor(msg, 'renamed', null, state),
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
        return { done: failedDone(msg), chunks: 0, mismatch: null };
      }
      default:
        return assertNever(msg);
    }
  }
}
