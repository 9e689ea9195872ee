// Options and start-failure codes of the alternative embedding providers (onnx, openai), as plain data for config.

/** Why a provider could not start or a remote call failed; stable codes a caller can switch on. */
export type ProviderFailureReason =
  | 'model_missing' // onnx: model.onnx or tokenizer files not found
  | 'model_invalid' // onnx: model.onnx unreadable, wrong inputs, or fails a probe run
  | 'tokenizer_invalid' // onnx: tokenizer.json / vocab.txt present but unusable
  | 'model_unavailable' // onnx hub: not cached and the hub (or mirror) cannot be reached: keyword-only until pulled
  | 'checksum_mismatch' // onnx hub: a file's sha256 differs from the pinned (or first recorded) one
  | 'endpoint_unreachable' // openai: connection refused, DNS failure, or timeout
  | 'endpoint_error' // openai: HTTP error status (after bounded retries on 429/5xx)
  | 'bad_response'; // openai: 2xx with a body that is not a usable embeddings response

/** An Error carrying a stable `code`; `toWireError` in common.ts keeps the code when it crosses a thread. */
export interface ProviderError extends Error {
  code: ProviderFailureReason;
}

export function providerError(code: ProviderFailureReason, message: string): ProviderError {
  return Object.assign(new Error(message), { code });
}

/** A sentence-transformers ONNX export on disk (all-MiniLM-L6-v2 layout, or a hub download). */
export interface OnnxProviderOptions {
  /** Folder holding model.onnx (or onnx/model.onnx) and tokenizer.json or vocab.txt. */
  modelDir: string;
  /** The ONNX file's path inside `modelDir`; default model.onnx, else onnx/model.onnx. */
  modelFile?: string;
  /** The file's sha256 when it was just verified (a hub download's manifest), so loading does not hash it again. */
  modelSha256?: string;
  /** Model name recorded in the index; defaults to the folder's name. */
  name?: string;
  /**
   * Tokens the model attends to, prompt included, special tokens not. Default: the export's max_seq_length less
   * its special tokens, at most 512; 256 when the export states none.
   */
  maxTokens?: number;
  /** Prompts before queries and indexed passages; default the export's own, else its family's (e5, nomic, bge). */
  queryPrefix?: string;
  passagePrefix?: string;
  /** onnxruntime intra-op threads; default lets onnxruntime choose. */
  intraOpThreads?: number;
}

/** Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, TEI, llama.cpp server). */
export interface OpenAiProviderOptions {
  /** Base URL including the version path, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Expected vector size; when set, start fails if the endpoint returns another size. */
  dim?: number;
  /** Approximate token window (chars/4). Default 512. */
  maxTokens?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Per-request timeout. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries on 429/5xx per request. Default 3. */
  retries?: number;
  /** Injected clock for backoff waits, so tests never sleep. */
  sleep?: (ms: number) => Promise<void>;
}
