// The `curation` job: USER.md curation (actors/knowledge/curation-run.ts) on `curation.schedule`, and on request
// (`memvault run curation`, POST /v1/jobs/curation/run). Opt-in: with `curation.enabled` false it never runs, not even
// on request, and makes no LLM call; on, it needs an LLM like every skill.
import { memoryPaths } from '../../memory/paths.js';
import { runCuration } from '../../knowledge/curation-run.js';
import { addDays, localDate } from '../dates.js';
import type { OwnJob } from './skill.js';

export const curationJob: OwnJob = {
  name: 'curation',
  llm: true,
  settings: (cfg) => ({ enabled: cfg.curation.enabled && cfg.llm !== undefined, cron: cfg.curation.schedule }),
  unready: (cfg) => (cfg.curation.enabled ? null : 'curation_disabled: USER.md curation is opt-in; set curation.enabled: true'),
  async run(env, req) {
    const c = env.cfg.curation;
    const today = req.date ?? localDate(req.slot ?? env.now(), env.tz);
    const days = Array.from({ length: c.lookback_days }, (_, i) => addDays(today, -i));
    return runCuration({
      vault: env.cfg.vault,
      memory: memoryPaths(env.cfg.memory.folder),
      days,
      maxChars: c.max_material_chars,
      now: env.now,
      ask: async (vars) => {
        const r = await env.ask.llm.chat({
          taskType: 'curation',
          messages: [
            { role: 'system', content: env.ask.templates.renderLlm('system', env.ask.today()) },
            { role: 'user', content: env.ask.templates.renderLlm('curation', vars) },
          ],
          temperature: 0.2,
        });
        return r.ok ? { ok: true, content: r.content ?? '' } : r;
      },
      write: (m) => env.writeUserMd(m),
    });
  },
};
