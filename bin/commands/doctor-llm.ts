// `memvault doctor`'s checks for the skills: is the configured chat-completions endpoint there, does the key work,
// does it list the models the config names (a server that lists none is taken at its word), and do the templates
// (with any templates.dir overrides) render.
import type { Config } from '../../config/load.js';
import { LlmClient } from '../../actors/scheduler/llm/client.js';
import { probeLlm } from '../../actors/scheduler/llm/health.js';
import { loadTemplates } from '../../actors/scheduler/templates/engine.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** The skills' templates (bundled and templates.dir overrides) parse and render with their samples. */
export function templatesCheck(cfg: Config): DoctorCheck {
  const t = loadTemplates(cfg);
  if (t.problems.length) return { name: 'templates', ok: false, detail: t.problems.map((p) => `${p.path}: ${p.rule}`).join('; ') };
  return {
    name: 'templates',
    ok: true,
    detail: cfg.templates.dir ? `bundled, with overrides from ${cfg.templates.dir}` : 'bundled (prompts/)',
  };
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
