// Whether the LLM endpoint can be used now: probed at start (GET {base_url}/models), marked down by a call that could
// not reach it, probed again with backoff while down (doubling until a call is answered), and up again after a probe
// or call succeeds. LLM-driven jobs idle with this reason while it is down (memvault status, /v1/status `llm`), and
// run what they owe when it is back.
import { fail, type Failure } from '../../../messages/common.js';
import type { Clock, TimerHandle } from '../../../supervisors/clock.js';
import type { LLM_STATES } from '../../../supervisors/runtime/board.js';
import type { LlmClient } from './client.js';
import type { LlmFailReason } from './types.js';

export type LlmStateName = (typeof LLM_STATES)[number];

export type ProbeResult = { ok: true; models: string[]; latencyMs: number; via: 'models' | 'chat' } | Failure<LlmFailReason>;

/** Failures that say nothing about the endpoint, only about one answer: they leave the state as it was. */
const PER_CALL: ReadonlySet<string> = new Set(['bad_answer']);

/**
 * Asks the endpoint what it serves (GET /models, which Ollama, llama.cpp, vLLM, LM Studio and OpenAI all answer);
 * a server without that route gets a one-token chat call instead. Never throws.
 */
export async function probeLlm(client: LlmClient, timeoutMs = 10_000): Promise<ProbeResult> {
  const c = client.cfg;
  if (!c) return fail('not_configured', 'no `llm` section in the config');
  const h = client.headers();
  if (!h.ok) return fail(h.reason, h.message);
  const base = c.base_url.replace(/\/+$/, '');
  const t0 = performance.now();
  const ms = Math.min(timeoutMs, c.timeout_s * 1000);
  try {
    const res = await fetch(`${base}/models`, { headers: h.headers, signal: AbortSignal.timeout(ms) });
    const text = await res.text();
    if (res.status === 401 || res.status === 403)
      return fail('unauthorized', `${base}/models answered ${res.status}: check llm.api_key_env`);
    if (res.ok) {
      let models: string[] = [];
      try {
        const data = (JSON.parse(text) as { data?: Array<{ id?: unknown }> }).data;
        models = Array.isArray(data) ? data.flatMap((m) => (typeof m.id === 'string' ? [m.id] : [])) : [];
      } catch {
        // a server that lists models some other way still answered
      }
      return { ok: true, models, latencyMs: Math.round(performance.now() - t0), via: 'models' };
    }
    if (res.status >= 500) return fail('server_error', `${base}/models answered ${res.status}`);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') return fail('timeout', `${base}/models gave no answer within ${ms} ms`);
    return fail('unreachable', `${base}: ${e.cause?.code ?? e.message}: is the LLM server running at llm.base_url?`);
  }
  // no /models route: one tiny chat call answers the same question
  const r = await client.chat({ taskType: 'probe', messages: [{ role: 'user', content: 'Reply with OK.' }], maxTokens: 1 });
  return r.ok ? { ok: true, models: [r.model], latencyMs: r.latencyMs, via: 'chat' } : fail(r.reason, r.message);
}

export interface LlmHealthOptions {
  client: LlmClient;
  clock: Clock;
  probe?: () => Promise<ProbeResult>;
  /** Called on every change of state (the scheduler writes the board and runs owed jobs when it turns ready). */
  onChange: (state: LlmStateName, message: string | null) => void;
  retryMinMs?: number;
  retryMaxMs?: number;
}

export class LlmHealth {
  state: LlmStateName = 'checking';
  message: string | null = null;
  readonly #o: LlmHealthOptions;
  #timer: TimerHandle | null = null;
  #retryMs = 0;
  #probing = false;

  constructor(o: LlmHealthOptions) {
    this.#o = o;
  }

  /** Probes once now; not configured stays so for good. */
  start(): Promise<void> {
    if (!this.#o.client.configured) {
      this.#set('not_configured', 'no `llm` section in the config: add one (see README, Configuring an LLM)');
      return Promise.resolve();
    }
    return this.#probe();
  }

  /** Whether LLM-driven work may start now; otherwise why not (`<state>: <message>`). */
  idleReason(): string | null {
    if (this.state === 'ready' || this.state === 'checking') return null;
    return `llm_${this.state}: ${this.message ?? this.state}`;
  }

  /** A call's outcome (LlmClient onOutcome): success proves the endpoint up; failing to reach it marks it down. */
  observe(outcome: 'ok' | LlmFailReason, message: string | null): void {
    if (outcome === 'ok') {
      this.#up(true);
      return;
    }
    if (PER_CALL.has(outcome) || outcome === 'not_configured') return;
    this.#down(outcome, message);
  }

  stop(): void {
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #probe(): Promise<void> {
    if (this.#probing) return;
    this.#probing = true;
    try {
      const r = await (this.#o.probe ?? (() => probeLlm(this.#o.client)))();
      if (r.ok) this.#up(false);
      else this.#down(r.reason, r.message);
    } finally {
      this.#probing = false;
    }
  }

  /**
   * Ready again. Only a call that was answered (`answered`) starts the backoff afresh: a probe proves `/models`
   * answers, not that chat does — a server listing its models while every chat call fails (a model it cannot load)
   * would otherwise flip ready ⇄ down every 30 s, each flip running the owed jobs' calls again, for catch_up_hours.
   */
  #up(answered: boolean): void {
    if (answered) this.#retryMs = 0;
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#set('ready', null);
  }

  #down(reason: LlmFailReason, message: string | null): void {
    this.#set(reason as LlmStateName, message);
    if (this.#timer) return;
    const min = this.#o.retryMinMs ?? 30_000;
    this.#retryMs = Math.min(this.#o.retryMaxMs ?? 300_000, this.#retryMs ? this.#retryMs * 2 : min);
    this.#timer = this.#o.clock.setTimeout(() => {
      this.#timer = null;
      void this.#probe();
    }, this.#retryMs);
  }

  #set(state: LlmStateName, message: string | null): void {
    if (state === this.state && message === this.message) return;
    this.state = state;
    this.message = message;
    this.#o.onChange(state, message);
  }
}
