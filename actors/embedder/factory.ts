// Chooses the embedding provider named in config; the same plain-data settings build it in any thread.
import path from 'node:path';
import type { Config } from '../../config/load.js';
import type { EmbeddingProvider, TokenCounter } from '../../messages/embedding.js';

export type ProviderSettings =
  | { kind: 'use-lite'; cacheDir: string; quantize: 'fp32' | 'int8' }
  | { kind: 'onnx'; modelDir: string; name?: string; maxTokens?: number }
  | { kind: 'openai'; baseUrl: string; model: string; apiKey?: string; dim?: number };

export function providerSettings(cfg: Config, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const e = cfg.embedder;
  switch (e.provider) {
    case 'use-lite':
      return { kind: 'use-lite', cacheDir: path.join(cfg.data_dir, 'models'), quantize: e.quantize };
    case 'onnx':
      return {
        kind: 'onnx',
        modelDir: path.resolve(cfg.vault, e.onnx?.model_dir ?? ''),
        name: e.onnx?.name,
        maxTokens: e.onnx?.max_tokens,
      };
    case 'openai': {
      const apiKey = e.openai?.api_key_env ? env[e.openai.api_key_env] : undefined;
      return { kind: 'openai', baseUrl: e.openai?.base_url ?? '', model: e.openai?.model ?? '', apiKey, dim: e.openai?.dim };
    }
  }
}

/** Builds a provider; throws an Error whose `code` names why it could not start (the caller degrades to keyword search). */
export async function createProvider(s: ProviderSettings, intraOpThreads = 1): Promise<EmbeddingProvider> {
  switch (s.kind) {
    case 'use-lite': {
      const { createUseLiteProvider } = await import('./use-lite/provider.js');
      return createUseLiteProvider({ cacheDir: s.cacheDir, quantize: s.quantize, intraOpThreads });
    }
    case 'onnx': {
      const { createOnnxProvider } = await import('./providers/onnx.js');
      return createOnnxProvider({ modelDir: s.modelDir, name: s.name, maxTokens: s.maxTokens, intraOpThreads });
    }
    case 'openai': {
      const { createOpenAiProvider } = await import('./providers/openai.js');
      return createOpenAiProvider({ baseUrl: s.baseUrl, model: s.model, apiKey: s.apiKey, dim: s.dim });
    }
  }
}

/**
 * The chunker's view of the model's tokenizer, without loading the model: chunks are sized in the model's own tokens.
 * Falls back to an approximation (and says so) when the tokenizer cannot be read; the embedder reports the real error.
 */
export async function tokenCounterFor(s: ProviderSettings): Promise<{ counter: TokenCounter; approximate: string | null }> {
  switch (s.kind) {
    case 'use-lite': {
      const { loadUseLiteTokenizer } = await import('./use-lite/tokenizer.js');
      return { counter: loadUseLiteTokenizer(), approximate: null };
    }
    case 'onnx': {
      const { loadTokenizer } = await import('./providers/tokenizer-files.js');
      const r = loadTokenizer(s.modelDir);
      const maxTokens = s.maxTokens ?? 256;
      if (r.ok) {
        const tok = r.tokenizer;
        return { counter: { maxTokens, count: (t: string) => tok.encode(t).length }, approximate: null };
      }
      return { counter: approxCounter(maxTokens), approximate: r.message };
    }
    case 'openai':
      return { counter: approxCounter(512), approximate: 'remote tokenizer unknown: ~4 characters per token' };
  }
}

function approxCounter(maxTokens: number): TokenCounter {
  return { maxTokens, count: (t: string) => Math.ceil(t.length / 4) };
}
