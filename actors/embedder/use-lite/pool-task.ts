// Piscina task for use-lite: each pool thread lazily opens one single-threaded session and embeds the texts it gets.
import type { EmbeddingProvider } from '../../../messages/embedding.js';
import type { UseLiteQuantize } from './build-onnx.js';
import { createUseLiteProvider } from './provider.js';

export interface UseLiteEmbedTask {
  texts: string[];
  /** Where the built model lives (the same folder the parent uses, so the build happens once). */
  cacheDir: string;
  quantize?: UseLiteQuantize;
}

// One provider per thread and variant; a failed start is forgotten so the next task retries.
const providers = new Map<string, Promise<EmbeddingProvider>>();

/** Embeds `texts`; returns one 512-float unit vector per text, in order (plain Float32Arrays, cloneable). */
export default async function useLiteEmbedTask(task: UseLiteEmbedTask): Promise<Float32Array[]> {
  const key = `${task.cacheDir}\0${task.quantize ?? 'fp32'}`;
  let provider = providers.get(key);
  if (!provider) {
    provider = createUseLiteProvider({ cacheDir: task.cacheDir, quantize: task.quantize, intraOpThreads: 1 });
    providers.set(key, provider);
    provider.catch(() => providers.delete(key));
  }
  return (await provider).embed(task.texts);
}
