// One LLM call for a skill: the system prompt and the skill's prompt (both templates), and the answer read as one
// JSON object checked against the skill's schema. Models wrap JSON in code fences or a sentence now and then, so the
// object is taken from between the first `{` and the last `}`; anything else is `llm_bad_output`, never a note.
import type { z } from 'zod';
import type { LlmClient } from './llm/client.js';
import type { Templates } from './templates/engine.js';
import type { LlmTemplate, LlmVars } from './templates/vars.js';
import { llmFailure } from './writer.js';

export type Asked<T> = { ok: true; value: T } | { ok: false; outcome: 'failed'; reason: string; retry?: boolean };

export interface AskDeps {
  llm: LlmClient;
  templates: Templates;
  /** `today` and `tz` for the system prompt. */
  today(): { today: string; tz: string };
}

/** Pulls one JSON object out of a model's answer. */
export function jsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new SyntaxError('no JSON object in the answer');
  return JSON.parse(text.slice(start, end + 1));
}

export async function ask<N extends Exclude<LlmTemplate, 'system'>, S extends z.ZodTypeAny>(
  d: AskDeps,
  task: N,
  vars: LlmVars[N],
  schema: S,
): Promise<Asked<z.infer<S>>> {
  const r = await d.llm.chat({
    taskType: task,
    messages: [
      { role: 'system', content: d.templates.renderLlm('system', d.today()) },
      { role: 'user', content: d.templates.renderLlm(task, vars) },
    ],
    temperature: 0.2,
  });
  if (!r.ok) return llmFailure(r);
  let json: unknown;
  try {
    json = jsonObject(r.content ?? '');
  } catch (err) {
    return { ok: false, outcome: 'failed', reason: `llm_bad_output: ${(err as Error).message}: ${(r.content ?? '').slice(0, 120)}` };
  }
  const p = schema.safeParse(json);
  if (!p.success) {
    const why = p.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
    return { ok: false, outcome: 'failed', reason: `llm_bad_output: the answer is not the JSON the prompt asks for (${why})` };
  }
  return { ok: true, value: p.data as z.infer<S> };
}
