// The LLM client every LLM-driven actor uses: POST {base_url}/chat/completions on any OpenAI-compatible server, the
// model picked by task type, retries on 429/5xx/connection failures (Retry-After honoured), a time limit per try,
// and every call recorded (invocation log, metrics). Failures come back as data with a reason; it never throws.
import { z } from 'zod';
import type { LlmConfig } from '../../../config/schema-llm.js';
import type { InvocationLog } from './invocation-log.js';
import type { LlmMetrics } from './metrics.js';
import { backoffMs, RETRY_AFTER_MAX_MS, retryAfterMs } from './retry.js';
import type { ChatFailure, ChatRequest, ChatResult, LlmFailReason, ToolCall, Usage } from './types.js';

export interface LlmClientOptions {
  /** Where `llm.api_key_env` is looked up (process.env by default). */
  env?: NodeJS.ProcessEnv;
  log?: InvocationLog | null;
  metrics?: LlmMetrics | null;
  /** Waits between tries; tests pass one that records the delay and returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** Wall-clock ms for the log's timestamps. */
  now?: () => number;
  random?: () => number;
  /** Told when a call fails or succeeds, so the owner can keep an up/down state (see LlmHealth). */
  onOutcome?: (outcome: 'ok' | LlmFailReason, message: string | null) => void;
  /** A line of the invocation log could not be written (disk full): the call's own result is unaffected. */
  onLogError?: (message: string) => void;
}

const ToolCallWire = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.unknown())]).optional() }),
});

const ChatResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z.array(ToolCallWire).nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().nonnegative().optional(), completion_tokens: z.number().nonnegative().optional() })
    .nullable()
    .optional(),
});

const NETWORK_RETRYABLE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN', 'ENOTFOUND']);

/** What one HTTP try came to. */
type Try =
  | { kind: 'answer'; status: number; text: string; retryAfter: string | null }
  | { kind: 'network'; code: string }
  | { kind: 'timeout' };

export class LlmClient {
  readonly cfg: LlmConfig | undefined;
  readonly #o: LlmClientOptions;
  readonly #url: string;

  constructor(cfg: LlmConfig | undefined, opts: LlmClientOptions = {}) {
    this.cfg = cfg;
    this.#o = opts;
    this.#url = cfg ? `${cfg.base_url.replace(/\/+$/, '')}/chat/completions` : '';
  }

  get configured(): boolean {
    return this.cfg !== undefined;
  }

  /** The alias `llm.routes` gives `taskType` (else `default`) and the model name it stands for. */
  modelFor(taskType: string): { alias: string; model: string } {
    const c = this.cfg;
    if (!c) return { alias: '', model: '' };
    const alias = c.routes[taskType] ?? 'default';
    return { alias, model: c.models[alias] ?? c.models.default };
  }

  /** Request headers, with the bearer key when `llm.api_key_env` names one (a missing key fails before any request). */
  headers(): { ok: true; headers: Record<string, string> } | ChatFailure {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const envName = this.cfg?.api_key_env;
    if (envName) {
      const key = (this.#o.env ?? process.env)[envName];
      if (!key) return this.#fail('unauthorized', `llm.api_key_env names ${envName}, which is not set in the daemon's environment`);
      h['authorization'] = `Bearer ${key}`;
    }
    return { ok: true, headers: h };
  }

  #fail(reason: LlmFailReason, message: string, extra: Partial<ChatFailure> = {}): ChatFailure {
    return { ok: false, reason, message, alias: '', model: '', latencyMs: 0, attempts: 0, ...extra };
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const c = this.cfg;
    if (!c) return this.#fail('not_configured', 'no `llm` section in the config: LLM-driven jobs idle until one is set');
    const { alias, model } = this.modelFor(req.taskType);
    const startedAt = (this.#o.now ?? Date.now)();
    const t0 = performance.now();
    const h = this.headers();
    const result = h.ok ? await this.#call(req, model, h.headers) : h;
    const r: ChatResult = { ...result, alias, model, latencyMs: Math.round(performance.now() - t0) };
    this.#record(req.taskType, r, startedAt);
    return r;
  }

  async #call(req: ChatRequest, model: string, headers: Record<string, string>): Promise<ChatResult> {
    const c = this.cfg!;
    const body = JSON.stringify({
      model,
      messages: req.messages,
      ...(req.tools?.length ? { tools: req.tools, tool_choice: req.toolChoice ?? 'auto' } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      stream: false,
    });
    const timeoutMs = Math.round(c.timeout_s * 1000);
    const sleep = this.#o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let attempt = 1; ; attempt++) {
      const t = await this.#try(body, headers, timeoutMs);
      const retriesLeft = attempt <= c.max_retries;
      const base = { attempts: attempt };
      if (t.kind === 'timeout')
        return this.#fail('timeout', `${this.#url} gave no answer within ${c.timeout_s} s (llm.timeout_s) for model ${model}`, base);
      if (t.kind === 'network') {
        if (NETWORK_RETRYABLE.has(t.code) && retriesLeft) {
          await sleep(backoffMs(attempt - 1, this.#o.random));
          continue;
        }
        return this.#fail(
          'unreachable',
          `${this.#url}: ${t.code} after ${attempt} tries: is the LLM server running at llm.base_url?`,
          base,
        );
      }
      if (t.status >= 200 && t.status < 300) return { ...this.#parse(t.text, model), ...base };
      const excerpt = t.text.replace(/\s+/g, ' ').trim().slice(0, 200) || '(empty body)';
      if (t.status === 429 || t.status >= 500) {
        const asked = t.status === 429 || t.status === 503 ? retryAfterMs(t.retryAfter, (this.#o.now ?? Date.now)()) : null;
        const reason = t.status === 429 ? 'rate_limited' : 'server_error';
        if (asked !== null && asked > RETRY_AFTER_MAX_MS)
          return this.#fail(
            reason,
            `${this.#url} answered ${t.status} asking to retry after ${Math.round(asked / 1000)} s; not waiting that long`,
            base,
          );
        if (retriesLeft) {
          await sleep(asked ?? backoffMs(attempt - 1, this.#o.random));
          continue;
        }
        return this.#fail(reason, `${this.#url} answered ${t.status} ${attempt} times for model ${model}: ${excerpt}`, base);
      }
      if (t.status === 401 || t.status === 403)
        return this.#fail('unauthorized', `${this.#url} answered ${t.status}: check the key in llm.api_key_env (${excerpt})`, base);
      return this.#fail('http_error', `${this.#url} answered ${t.status} for model ${model}: ${excerpt}`, base);
    }
  }

  async #try(body: string, headers: Record<string, string>, timeoutMs: number): Promise<Try> {
    try {
      const res = await fetch(this.#url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text(); // the same signal bounds the body: a server that stalls mid-answer times out too
      return { kind: 'answer', status: res.status, text, retryAfter: res.headers.get('retry-after') };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; name?: string } };
      if (e.name === 'TimeoutError' || e.cause?.name === 'TimeoutError') return { kind: 'timeout' };
      return { kind: 'network', code: e.cause?.code ?? e.cause?.name ?? e.name ?? 'network_error' };
    }
  }

  #parse(text: string, model: string): ChatResult {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.#fail('bad_answer', `${this.#url} answered with something that is not JSON: ${text.slice(0, 120)}`);
    }
    const p = ChatResponse.safeParse(json);
    if (!p.success)
      return this.#fail(
        'bad_answer',
        `${this.#url} answered without choices[0].message for model ${model}: is it a chat-completions endpoint?`,
      );
    const choice = p.data.choices[0]!;
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((tc, i) => ({
      id: tc.id ?? `call_${i}`,
      type: 'function',
      function: {
        name: tc.function.name,
        arguments: typeof tc.function.arguments === 'string' ? tc.function.arguments : JSON.stringify(tc.function.arguments ?? {}),
      },
    }));
    const usage: Usage = { tokensIn: p.data.usage?.prompt_tokens ?? 0, tokensOut: p.data.usage?.completion_tokens ?? 0 };
    return {
      ok: true,
      content: choice.message.content ?? null,
      toolCalls,
      finishReason: choice.finish_reason ?? null,
      usage,
      alias: '',
      model,
      costUsd: this.costOf(model, usage),
      latencyMs: 0,
      attempts: 0,
    };
  }

  /** USD for `usage` at `llm.prices[model]` (0 without a price). */
  costOf(model: string, usage: Usage): number {
    const p = this.cfg?.prices[model];
    if (!p) return 0;
    return (usage.tokensIn * p.in_per_mtok + usage.tokensOut * p.out_per_mtok) / 1e6;
  }

  #record(taskType: string, r: ChatResult, startedAt: number): void {
    const outcome = r.ok ? 'ok' : r.reason;
    const usage = r.ok ? r.usage : { tokensIn: 0, tokensOut: 0 };
    const cost = r.ok ? r.costUsd : 0;
    const m = this.#o.metrics;
    if (m) {
      const labels = { task_type: taskType, model: r.model || '(none)' };
      m.calls.inc({ ...labels, outcome });
      m.tokens.inc({ ...labels, direction: 'in' }, usage.tokensIn);
      m.tokens.inc({ ...labels, direction: 'out' }, usage.tokensOut);
      m.cost.inc(labels, cost);
      m.latency.observe(labels, r.latencyMs / 1000);
    }
    if (outcome !== 'not_configured') {
      const problem = this.#o.log?.append({
        at: new Date(startedAt).toISOString(),
        task_type: taskType,
        alias: r.alias,
        model: r.model,
        tokens_in: usage.tokensIn,
        tokens_out: usage.tokensOut,
        cost_usd: cost,
        latency_ms: r.latencyMs,
        attempts: r.attempts,
        outcome,
      });
      if (problem) this.#o.onLogError?.(problem);
    }
    this.#o.onOutcome?.(outcome, r.ok ? null : r.message);
  }
}
