// Messages the store writer receives: every index mutation, each applied in one idempotent transaction.
import type { ChunkDraft, ModelInfo, ParsedNote, VaultPath } from './common.js';
import type { EpisodeBatch, SourceType } from './episodes.js';

export type FileFailReason =
  | 'not_utf8'
  | 'binary'
  | 'too_large'
  | 'unreadable'
  | 'symlink_loop'
  | 'vanished'
  | 'crashed'
  | 'not_a_file'
  | 'outside_vault' // a symlinked note whose target lies outside the vault: never read
  | 'unsupported_name'; // a name the index cannot key as it is on disk (not NFC, or holding a backslash)

export interface NoteForStore extends Omit<ParsedNote, 'chunks'> {
  chunks: Array<ChunkDraft & { vector: Float32Array | null }>;
}

export type StoreMsg =
  | { type: 'store.upsert'; note: NoteForStore; mtimeMs: number; size: number; model: ModelInfo | null }
  | { type: 'store.touch'; path: VaultPath; mtimeMs: number; size: number; contentHash: string }
  | { type: 'store.delete'; path: VaultPath }
  | { type: 'store.rename'; from: VaultPath; to: VaultPath; mtimeMs: number; size: number }
  | { type: 'store.file_failed'; path: VaultPath; reason: FileFailReason; message: string }
  /** Request (main's reindex): close the live index, rename `next` over it, reopen, bump indexGeneration; replies when done. */
  | { type: 'store.swap_index'; next: string }
  /** The index file was deleted under the daemon: main made a fresh one at the same path; reopen it and rebuild. */
  | { type: 'store.reopen_index'; reason: string }
  /** The memory actor's projection step (episodes, facts, the journal checkpoint), in one transaction; answered by `memory.projected`. */
  | { type: 'store.episodes'; batch: EpisodeBatch }
  /** Request (retention sweep): remove episode rows older than each cutoff (epoch ms) in one transaction; answered with PruneCounts. */
  | { type: 'store.prune_episodes'; cutoffs: Partial<Record<SourceType, number>> };
