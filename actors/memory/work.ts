// What the memory core asks of the index, before vectors: documents to upsert, rows to remove, and forgets that
// must first read what the index holds. The projector (projector.ts) embeds and batches these for the store writer.
import type { ChunkDraft } from '../../messages/common.js';
import type { DocKey, EpisodeDoc } from '../../messages/episodes.js';

/** An episode or fact document whose chunks still need vectors. */
export type DraftDoc = Omit<EpisodeDoc, 'chunks'> & { chunks: ChunkDraft[] };

export type Work =
  /** `fresh`: embed even when a stored vector of the same text exists (a task entering a terminal status). */
  | { op: 'upsert'; doc: DraftDoc; fresh: boolean }
  | { op: 'delete'; key: DocKey }
  | { op: 'soft_delete'; key: DocKey }
  /** Forgotten chat messages of a stretch no longer held in memory: their turns are read back and rebuilt without them. */
  | { op: 'forget_chat'; session: string; messageIds: string[] }
  | { op: 'meta'; key: string; value: string | null };

/** A unit of work and the journal seq it came from (0 for the fact log, which the vault makes durable). */
export interface Queued {
  work: Work;
  seq: number;
  /** Its record's receipt time (the journal file it is in is that UTC day's). */
  rt: number;
  /** Monotonic ms it was queued: the age of the oldest pending work. */
  since: number;
  /** Its place in the projector's queue, for barriers (everything queued up to now is applied). */
  n: number;
}

export function keyOf(w: Work): string | null {
  switch (w.op) {
    case 'upsert':
      return `${w.doc.sourceType}\u0000${w.doc.sourceId}`;
    case 'delete':
    case 'soft_delete':
      return `${w.key.sourceType}\u0000${w.key.sourceId}`;
    case 'meta':
      return `meta\u0000${w.key}`;
    case 'forget_chat':
      return null;
  }
}
