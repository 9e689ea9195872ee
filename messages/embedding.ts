// The embedding provider contract: every provider (use-lite, onnx, openai) implements this.
import type { ModelInfo } from './common.js';

/** Counts tokens the way the model will see them, so the chunker can size chunks to the model's window. */
export interface TokenCounter {
  count(text: string): number;
  /** Tokens the model actually attends to; text past this is ignored by the model. */
  readonly maxTokens: number;
}

/** What a text is: models trained with prompts (e5's `query: ` / `passage: `) embed the two differently. */
export type EmbedKind = 'query' | 'passage';

export interface EmbeddingProvider {
  readonly info: ModelInfo;
  readonly tokens: TokenCounter;
  /** Unit-length vectors, one per text, each `info.dim` long; `kind` defaults to 'passage' (what is indexed). */
  embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]>;
  close(): Promise<void>;
}
