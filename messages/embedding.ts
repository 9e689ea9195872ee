// The embedding provider contract: every provider (use-lite, onnx, openai) implements this.
import type { ModelInfo } from './common.js';

/** Counts tokens the way the model will see them, so the chunker can size chunks to the model's window. */
export interface TokenCounter {
  count(text: string): number;
  /** Tokens the model actually attends to; text past this is ignored by the model. */
  readonly maxTokens: number;
}

export interface EmbeddingProvider {
  readonly info: ModelInfo;
  readonly tokens: TokenCounter;
  /** Unit-length vectors, one per text, each `info.dim` long. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}
