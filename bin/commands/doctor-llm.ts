// `memvault doctor`'s LLM check: is the configured chat-completions endpoint there, does the key work, and does it
// list the models the config names (a server that lists none, like some llama.cpp builds, is taken at its word).
import type { Config } from '../../config/load.js';
import { LlmClient } from '../../llm/client.js';
import { probeLlm } from '../../llm/health.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export async function llmCheck(cfg: Config): Promise<DoctorCheck[]> {
  if (!cfg.llm)
    return [
      {
        name: 'llm',
        ok: true,
        detail: 'not configured: the skills (meeting notes, reflections, reviews …) idle until an `llm` section is set',
      },
    ];
  const client = new LlmClient(cfg.llm);
  const r = await probeLlm(client);
  if (!r.ok) return [{ name: 'llm', ok: false, detail: `${r.reason}: ${r.message} — the skills idle until it answers` }];
  const wanted = [...new Set(Object.values(cfg.llm.models))];
  const unlisted = r.models.length ? wanted.filter((m) => !r.models.includes(m)) : [];
  const listed = r.models.length
    ? `serves ${r.models.slice(0, 5).join(', ')}${r.models.length > 5 ? ` (+${r.models.length - 5} more)` : ''}`
    : 'lists no models';
  const note = unlisted.length
    ? `; not listed by the server: ${unlisted.join(', ')} (check llm.models; llama.cpp answers with whatever it loaded)`
    : '';
  return [{ name: 'llm', ok: true, detail: `${cfg.llm.base_url} answers in ${r.latencyMs} ms, ${listed}${note}` }];
}
