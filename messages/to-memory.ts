// Messages the memory actor receives: episodes to journal (requests answered once they are durable), forgetting and
// pruning, the fact log's changes, and the store writer's word that a projection step reached the index.
import type { Failure } from './common.js';
import type { Episode, SourceType } from './episodes.js';

export type MemoryFailReason = 'unavailable' | 'disk_full' | 'not_found' | 'bad_request' | 'forbidden';

export type MemoryMsg =
  /**
   * Request: journal these episodes (fsync'd) and project them; answered with AppendResult. With `guard` (an agent
   * below admin) an item that would replace or delete another agent's task or chat message is refused, not journaled.
   */
  | { type: 'memory.append'; episodes: Array<{ ep: Episode; at: number }>; agent: string; guard: boolean }
  /** Request: close a chat session (its turns become final); answered with CloseResult. */
  | { type: 'memory.close_session'; session: string; agent: string }
  /**
   * Request: forget an episode by id (a tombstone in the journal); answered with ForgetEpisodeResult. With `guard` (an
   * agent below admin) only what `agent` alone recorded, indexed or not, is forgotten: else `forbidden`.
   */
  | { type: 'memory.forget_episode'; id: string; agent: string; guard: boolean }
  /** Request: a retention sweep now (`memvault prune`); answered with PruneResult. */
  | { type: 'memory.prune' }
  /** The store writer applied projection batch `batch`. */
  | { type: 'memory.projected'; batch: number }
  /** The index file was swapped or rebuilt: replay the journal from its checkpoint and sync the fact logs again. */
  | { type: 'memory.rescan'; reason: string }
  /** The git writer appended a fact line to a day log and committed it: index what was appended (O(new lines)). */
  | { type: 'memory.facts_appended'; path: string }
  /** Changes on disk under the memory folder (day logs, tombstones): from the OS watcher, or the git writer (forget, undo). */
  | { type: 'memory.fs_events'; paths: string[]; from: 'os' | 'git' };

export type AppendResult =
  /** `refused`: positions in `episodes` left out because another agent recorded that id (with `guard` only). */
  | { ok: true; accepted: number; ids: string[]; first_seq: number; last_seq: number; refused: number[] }
  | Failure<'unavailable' | 'disk_full'>;

export type CloseResult = { ok: true; closed: boolean } | Failure<'unavailable' | 'disk_full'>;

export type ForgetEpisodeResult = { ok: true; forgotten: string[] } | Failure<MemoryFailReason>;

export type PruneResult =
  | { ok: true; removed: Partial<Record<SourceType, number>>; journal_files_dropped: number; cutoffs: Record<string, string | null> }
  | Failure<'unavailable'>;
