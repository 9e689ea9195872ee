// Messages the embedder receives: a parsed note whose chunks need vectors (reused by chunk hash when possible).
import type { ParsedNote } from './common.js';

export type EmbedderMsg =
  | { type: 'embedder.embed_note'; note: ParsedNote; mtimeMs: number; size: number }
  /** Request (main, after a reindex's swap): read the swapped-in index file from now on; answered `{ reopened: true }`. */
  | { type: 'embedder.index_swapped' };
