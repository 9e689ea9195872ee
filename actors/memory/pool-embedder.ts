// The model as the memory actor reaches it: main's bulk pool (the one the embedder uses, so both share the threads),
// through a micro-batcher; loaded once, on first use. Null when the provider cannot start: episodes go keyword-only.
import type { MessagePort } from 'node:worker_threads';
import type { Config } from '../../config/load.js';
import type { ModelInfo } from '../../messages/common.js';
import { Batcher } from '../embedder/batcher.js';
import { providerSettings } from '../embedder/factory.js';
import { poolClient } from '../embedder/pool-api.js';
import { splitRows } from '../embedder/pool-task.js';

export interface PoolEmbedder {
  embed(texts: string[]): Promise<Float32Array[]>;
  model: ModelInfo;
}

export function poolEmbedder(
  port: MessagePort | undefined,
  cfg: Config,
  unavailable: (detail: string) => void,
): () => Promise<PoolEmbedder | null> {
  let started: Promise<PoolEmbedder | null> | null = null;
  return () => {
    started ??= (async () => {
      if (!port) throw new Error("the memory actor needs workerData.port to main's embedding pools");
      const run = poolClient(port);
      const settings = providerSettings(cfg);
      try {
        const probe = await run('bulk', { settings, texts: ['memvault'] });
        const batcher = new Batcher({
          maxBatch: cfg.embedder.batch_size,
          windowMs: cfg.embedder.batch_window_ms,
          concurrency: cfg.embedder.threads,
          run: async (texts) => splitRows(await run('bulk', { settings, texts })),
        });
        return { embed: (texts: string[]) => batcher.embed(texts), model: probe.info };
      } catch (err) {
        unavailable(String((err as Error)?.message ?? err));
        return null;
      }
    })();
    return started;
  };
}
