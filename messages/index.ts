// Re-exports every protocol; the router routes a message by the actor named before the dot in its `type`.
export * from './common.js';
export * from './embedding.js';
export type { WatcherMsg, IndexedState } from './to-watcher.js';
export type { ChunkerMsg } from './to-chunker.js';
export type { EmbedderMsg } from './to-embedder.js';
export type { StoreMsg, NoteForStore, FileFailReason } from './to-store.js';
export type { GatewayMsg } from './to-gateway.js';
export type { MainMsg } from './to-main.js';
export type { GitMsg } from './to-git.js';
export type * from './vault-ops.js';

import type { WatcherMsg } from './to-watcher.js';
import type { ChunkerMsg } from './to-chunker.js';
import type { EmbedderMsg } from './to-embedder.js';
import type { StoreMsg } from './to-store.js';
import type { GatewayMsg } from './to-gateway.js';
import type { MainMsg } from './to-main.js';
import type { GitMsg } from './to-git.js';

export type AnyMsg = WatcherMsg | ChunkerMsg | EmbedderMsg | StoreMsg | GatewayMsg | MainMsg | GitMsg;
export type ActorName = 'watcher' | 'chunker' | 'embedder' | 'store' | 'gateway' | 'main' | 'git';

export function destinationOf(msg: AnyMsg): ActorName {
  return msg.type.slice(0, msg.type.indexOf('.')) as ActorName;
}
