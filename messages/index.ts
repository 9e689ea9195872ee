// Re-exports every protocol; the router routes a message by the actor named before the dot in its `type`.
export * from './common.js';
export * from './embedding.js';
export type { WatcherMsg, IndexedState } from './to-watcher.js';
export type { ChunkerMsg } from './to-chunker.js';
export type { EmbedderMsg } from './to-embedder.js';
export type { StoreMsg, NoteForStore, FileFailReason } from './to-store.js';
export type { GatewayMsg } from './to-gateway.js';
export type { MainMsg, MetricsText, ReindexResult } from './to-main.js';
export type { GitMsg } from './to-git.js';
export type { SchedulerMsg } from './to-scheduler.js';
export type { MemoryMsg, AppendResult, CloseResult, ForgetEpisodeResult, PruneResult } from './to-memory.js';
export type * from './episodes.js';
export type * from './vault-ops.js';
export type * from './to-scheduler.js';
export type * from './supervision.js';

import type { WatcherMsg } from './to-watcher.js';
import type { ChunkerMsg } from './to-chunker.js';
import type { EmbedderMsg } from './to-embedder.js';
import type { StoreMsg } from './to-store.js';
import type { GatewayMsg } from './to-gateway.js';
import type { MainMsg, MetricsText, ReindexResult } from './to-main.js';
import type { GitMsg } from './to-git.js';
import type { SchedulerMsg, JobRunResult, JobsList, RunRefusal } from './to-scheduler.js';
import type { MutationResult, RememberResult } from './vault-ops.js';
import type { PersonCommitResult } from './to-git.js';
import type { MemoryMsg, AppendResult, CloseResult, ForgetEpisodeResult, PruneResult } from './to-memory.js';
import type { PruneCounts } from './episodes.js';
import type { DreamStatus, DreamUnavailable, TickResult, UndoRunResult } from './dream.js';
import type { SupervisionUnavailable, SupervisorNode } from './supervision.js';

export type AnyMsg = WatcherMsg | ChunkerMsg | EmbedderMsg | StoreMsg | GatewayMsg | MainMsg | GitMsg | SchedulerMsg | MemoryMsg;
export type ActorName = 'watcher' | 'chunker' | 'embedder' | 'store' | 'gateway' | 'main' | 'git' | 'scheduler' | 'memory';

export type MsgType = AnyMsg['type'];
export type MsgOf<T extends MsgType> = Extract<AnyMsg, { type: T }>;

/** Messages sent as requests (`ctx.request`, `ActorHandle.request`) and what the receiver answers (`ctx.reply`). */
export interface Replies {
  'git.mutate': MutationResult;
  'git.undo': MutationResult;
  'main.metrics': MetricsText;
  'main.reindex': ReindexResult;
  'main.supervision': SupervisorNode | SupervisionUnavailable;
  'store.swap_index': { swapped: true };
  'gateway.index_swapped': { reopened: true };
  'embedder.index_swapped': { reopened: true };
  'scheduler.index_swapped': { reopened: true };
  'scheduler.run': JobRunResult | RunRefusal;
  'scheduler.jobs': JobsList;
  'store.prune_episodes': PruneCounts;
  'git.remember': RememberResult;
  'git.forget': MutationResult;
  'git.commit_person': PersonCommitResult;
  'memory.append': AppendResult;
  'memory.close_session': CloseResult;
  'memory.forget_episode': ForgetEpisodeResult;
  'memory.prune': PruneResult;
  'scheduler.dream_status': DreamStatus | DreamUnavailable;
  'scheduler.consolidate': TickResult | DreamUnavailable;
  'git.dream_journal': MutationResult;
  'git.undo_run': UndoRunResult;
  'git.dream_memory_md': MutationResult;
  'git.curation': MutationResult;
}
export type RequestType = keyof Replies;

export function destinationOf(msg: { type: string }): ActorName {
  return msg.type.slice(0, msg.type.indexOf('.')) as ActorName;
}
