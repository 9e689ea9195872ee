// The chat-completions contract memvault speaks (OpenAI's wire shape, which Ollama, llama.cpp, vLLM and LM Studio
// serve too): messages with tool calls and tool answers, what a call returns, and its failures as stable reasons.
import type { Failure } from '../../../messages/common.js';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function the model may call: JSON Schema for its arguments. */
export interface ToolDef {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatRequest {
  /** What the call is for (a skill's name, `dream`, …): picks the model through `llm.routes` and labels log and metrics. */
  taskType: string;
  messages: ChatMessage[];
  tools?: ToolDef[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
}

export interface Usage {
  tokensIn: number;
  tokensOut: number;
}

export interface ChatOk {
  ok: true;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: Usage;
  /** The alias the route chose and the model name sent. */
  alias: string;
  model: string;
  costUsd: number;
  latencyMs: number;
  attempts: number;
}

/**
 * Why a call failed: `not_configured` (no llm section), `unreachable` (connection refused or reset, after the
 * retries), `timeout` (no answer within timeout_s: not retried), `rate_limited` (429 after the retries, or a
 * Retry-After longer than we wait), `server_error` (5xx after the retries), `unauthorized` (401/403 or a missing
 * key), `http_error` (another 4xx: wrong model name, bad request), `bad_answer` (not JSON, or no choices[0].message).
 */
export type LlmFailReason =
  | 'not_configured'
  | 'unreachable'
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'unauthorized'
  | 'http_error'
  | 'bad_answer';

export type ChatFailure = Failure<LlmFailReason> & { alias: string; model: string; latencyMs: number; attempts: number };
export type ChatResult = ChatOk | ChatFailure;

/** One line of the invocation log (`<data dir>/invocations/YYYY-MM-DD.jsonl`). */
export interface Invocation {
  /** ISO time the call started. */
  at: string;
  task_type: string;
  alias: string;
  model: string;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  latency_ms: number;
  attempts: number;
  /** `ok` or the failure reason. */
  outcome: 'ok' | LlmFailReason;
}
