// The piscina task: each pool thread lazily builds one single-threaded provider and embeds the batches it is given.
import type { ModelInfo } from '../../messages/common.js';
import type { EmbeddingProvider, EmbedKind } from '../../messages/embedding.js';
import { workerData } from 'node:worker_threads';
import { niceThisThread } from '../../supervisors/runtime/thread-priority.js';
import { createProvider, type ProviderSettings } from './factory.js';

// main's bulk pool runs its threads at a lower priority (embedder.nice); the query pool keeps the normal one
niceThisThread((workerData as { nice?: number } | null)?.nice ?? 0);

let provider: Promise<EmbeddingProvider> | null = null;

export interface EmbedTask {
  settings: ProviderSettings;
  texts: string[];
  /** 'query' for the gateway's searches (a model with prompts embeds them differently); default 'passage'. */
  kind?: EmbedKind;
}
/** All vectors in one buffer (rows of `dim`). */
export interface EmbedResult {
  dim: number;
  data: Float32Array;
  info: ModelInfo;
}

export default async function embedTask(task: EmbedTask): Promise<EmbedResult> {
  provider ??= createProvider(task.settings, 1);
  let p: EmbeddingProvider;
  try {
    p = await provider;
  } catch (err) {
    provider = null; // let a later task retry (e.g. an endpoint that comes back)
    throw err;
  }
  const vectors = await p.embed(task.texts, task.kind);
  const dim = p.info.dim;
  const data = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => data.set(v, i * dim));
  return { dim, data, info: p.info }; // copied back: ~64 KB per batch, cheaper than a transfer list dance
}

/** A provider that could not start is an expected failure: data with its reason code (a thrown error's `code` would not survive the thread hop). */
export type PoolOutcome = { ok: true; result: EmbedResult } | { ok: false; code: string; message: string };

/** The same task, its failure returned as data: what main's pools run (`pool.run(task, { name: 'outcome' })`). */
export async function outcome(task: EmbedTask): Promise<PoolOutcome> {
  try {
    return { ok: true, result: await embedTask(task) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, code: e.code ?? 'provider_failed', message: e.message };
  }
}

export function splitRows(r: EmbedResult): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < r.data.length; i += r.dim) out.push(r.data.subarray(i, i + r.dim));
  return out;
}
