// `llm: {state, reason}` in /v1/status and `memvault status`: whether the LLM-driven jobs can run, read from the
// scheduler's board slot (it probes the endpoint and marks it down when calls cannot reach it), with the reason.
import type { Config } from '../../config/load.js';
import { type Board, LLM_STATES, stateName } from '../../supervisors/runtime/board.js';

export interface LlmStatus {
  /** `ready`, `checking` (first probe under way), or `idle` with the reason. */
  state: 'ready' | 'checking' | 'idle' | 'unknown';
  reason: string | null;
}

const WHY: Record<(typeof LLM_STATES)[number], string> = {
  checking: '',
  ready: '',
  not_configured: 'no `llm` section in the config: the skills idle until one is set',
  unreachable: 'the endpoint does not answer: is the LLM server running at llm.base_url?',
  timeout: 'the endpoint gave no answer within llm.timeout_s',
  unauthorized: 'the endpoint refused the key (llm.api_key_env)',
  rate_limited: 'the endpoint keeps answering 429 (rate limited)',
  server_error: 'the endpoint keeps answering 5xx',
  http_error: 'the endpoint refused the request (a model it does not serve? see llm.models)',
  bad_answer: 'the endpoint answered something that is not a chat completion',
};

const NO_DAEMON: LlmStatus = { state: 'unknown', reason: 'the daemon is not running' };

export function llmStatus(cfg: Config, board: Board | null): LlmStatus {
  if (!cfg.llm) return { state: 'idle', reason: `llm_not_configured: ${WHY.not_configured}` };
  if (!cfg.writes.enabled) return { state: 'idle', reason: 'writes_off: the skills write notes, and writes.enabled is false' };
  if (!board) return { ...NO_DAEMON };
  const name = stateName(LLM_STATES, board.get('llmState'), 'checking');
  if (name === 'ready' || name === 'checking') return { state: name, reason: null };
  return { state: 'idle', reason: `llm_${name}: ${WHY[name]} (${cfg.llm.base_url})` };
}

/**
 * A command's own word on the llm when no daemon runs: from the config it was given, or, given none, nothing — the
 * built-in defaults have no llm section, and the daemon's config, which may, is not known here.
 */
export function llmStatusWithoutDaemon(cfg: Config): LlmStatus {
  return cfg.config_file === null ? { ...NO_DAEMON } : llmStatus(cfg, null);
}
