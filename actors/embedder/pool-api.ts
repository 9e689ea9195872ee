// The embedding pools' interface across threads: main owns the piscina pools, actors call them through a
// MessagePort with comlink. A pool thread must never be terminated mid-inference (onnxruntime-node aborts the
// whole process when a thread dies inside `session.run`), so pools outlive the actors that use them.
import type { MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { ModelInfo } from '../../messages/common.js';
import type { EmbeddingProvider } from '../../messages/embedding.js';
import type { ProviderSettings } from './factory.js';
import { splitRows, type EmbedResult, type EmbedTask, type PoolOutcome } from './pool-task.js';

export type { PoolOutcome };

/** `bulk`: indexing, `embedder.threads` threads; `query`: one thread for the gateway, so searches never queue behind indexing. */
export type PoolName = 'bulk' | 'query';

export interface PoolApi {
  run(pool: PoolName, task: EmbedTask): Promise<PoolOutcome>;
}

/** Main's side: serves `api` on `port`. */
export function servePools(api: PoolApi, port: MessagePort): void {
  Comlink.expose(api, nodeEndpoint(port as never));
}

/** An actor's side: calls main's pools; rejects with an Error whose `code` is the provider's reason code. */
export function poolClient(port: MessagePort): (pool: PoolName, task: EmbedTask) => Promise<EmbedResult> {
  const remote = Comlink.wrap<PoolApi>(nodeEndpoint(port as never));
  return async (pool, task) => {
    const r = await remote.run(pool, task);
    if (r.ok) return r.result;
    throw Object.assign(new Error(r.message), { code: r.code });
  };
}

/** The query embedder the gateway searches with, backed by the `query` pool; loads its model on the first call. */
export async function remoteQueryProvider(
  run: (pool: PoolName, task: EmbedTask) => Promise<EmbedResult>,
  settings: ProviderSettings,
): Promise<Pick<EmbeddingProvider, 'info' | 'embed'>> {
  const probe = await run('query', { settings, texts: ['memvault'] });
  const info: ModelInfo = probe.info;
  return { info, embed: async (texts, kind) => splitRows(await run('query', { settings, texts, kind })) };
}
