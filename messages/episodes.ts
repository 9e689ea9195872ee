// Episodes as plain data: what agents post (validated by the gateway), what the journal records, and the documents
// the memory actor hands the store writer. Shared by the gateway, the memory actor, the store writer and the CLI.
import type { ChunkDraft, ModelInfo } from './common.js';

export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';

export interface ChatEpisode {
  type: 'chat';
  session_id: string;
  message_id: string;
  role: ChatRole;
  text: string;
  at?: string | number;
}

export interface TaskEpisode {
  type: 'task';
  task_id: string;
  title: string;
  description?: string;
  notes?: string;
  status: string;
  domain?: string;
  deadline?: string;
  priority?: string | number;
  event?: 'upsert' | 'delete';
  at?: string | number;
}

export interface CorrectionEpisode {
  type: 'correction';
  correction_id: string;
  field: string;
  original: string;
  corrected: string;
  input: string;
  task_type?: string;
  at?: string | number;
}

export type Episode = ChatEpisode | TaskEpisode | CorrectionEpisode;
export type EpisodeType = Episode['type'];
export const EPISODE_TYPES: readonly EpisodeType[] = ['chat', 'task', 'correction'];

/** Every source_type the index holds: vault notes, the three episode kinds, and facts from the fact log. */
export const SOURCE_TYPES = ['vault', 'chat', 'task', 'correction', 'fact'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** What one journal line holds besides its sequence number, receipt time and agent. */
export type JournalEntry =
  /** An episode as accepted; `at` is its time in epoch ms (its own `at`, else the time it was received). */
  | { k: 'ep'; ep: Episode; at: number }
  /** Forget an episode by id (`chat:<session>:<message>`, `task:<id>`, `correction:<id>`): earlier records of it are skipped. */
  | { k: 'forget'; id: string }
  /** A chat session ended (asked, idle, or too long to hold): its turns are final, later messages start anew. */
  | { k: 'close'; session: string; why: 'closed' | 'idle' | 'size' };

/** One line of `<data dir>/episodes/YYYY-MM-DD.jsonl`: `seq` grows by one per line, across files. */
export type JournalRecord = JournalEntry & { seq: number; rt: number; agent: string };

/** The id an episode is forgotten by, and that results carry. */
export function episodeId(ep: Episode): string {
  switch (ep.type) {
    case 'chat':
      return `chat:${ep.session_id}:${ep.message_id}`;
    case 'task':
      return `task:${ep.task_id}`;
    case 'correction':
      return `correction:${ep.correction_id}`;
  }
}

/** A document of an episode or a fact, with its chunks' vectors (null: keyword-only), for one store transaction. */
export interface EpisodeDoc {
  sourceType: Exclude<SourceType, 'vault'>;
  sourceId: string;
  uri: string | null;
  title: string;
  contentHash: string;
  metadata: Record<string, unknown>;
  tags: string[];
  /** The episode's time (newest message of a turn), epoch ms: what retention and `at` in results go by. */
  atMs: number;
  chunks: Array<ChunkDraft & { vector: Float32Array | null }>;
  /** Wall time the newest input of this document was received (ingest → searchable latency). */
  receivedAt: number;
}

export interface DocKey {
  sourceType: Exclude<SourceType, 'vault'>;
  sourceId: string;
}

/** One projection step, applied by the store writer in one transaction. */
export interface EpisodeBatch {
  id: number;
  /** The index generation it was built for: after a swap the store drops older batches (the memory actor replays). */
  generation: number;
  upserts: EpisodeDoc[];
  /** Removed with their chunks, FTS and vector rows (replaced turns, forgotten episodes and facts). */
  deletes: DocKey[];
  /** Soft-deleted (a task's `event: "delete"`): the row stays, its chunks go. */
  softDeletes: DocKey[];
  /** `meta` rows to set (null: remove): the journal checkpoint, the fact logs' last-seen stats. */
  meta: Array<{ key: string; value: string | null }>;
  model: ModelInfo | null;
}

/** Where replay starts: every journal record before `seq` is in the index (or in nothing that is still open). */
export interface JournalCheckpoint {
  seq: number;
  /** The journal file holding `seq` (files before it need not be read). */
  file: string;
}

export const CHECKPOINT_KEY = 'episodes_checkpoint';
export const FACT_LOG_KEY_PREFIX = 'fact_log:';

/** What the store writer answers a retention sweep: rows removed by source type. */
export interface PruneCounts {
  removed: Partial<Record<SourceType, number>>;
}
