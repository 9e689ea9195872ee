// The dream's prompt, rendered from prompts/llm/dream.liquid (an override in templates.dir wins) with strict
// variables: a missing variable is an error, never an empty gap in what the model is told.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Liquid } from 'liquidjs';
import { BUNDLED_DIR } from '../scheduler/templates/engine.js';
import type { LlmVars } from '../scheduler/templates/vars.js';

export type DreamPromptVars = LlmVars['dream'];

const engine = new Liquid({ strictVariables: true, strictFilters: true });

export function promptFile(overrideDir: string | null, name = 'dream'): string {
  const over = overrideDir ? path.join(overrideDir, 'llm', `${name}.liquid`) : null;
  return over && existsSync(over) ? over : path.join(BUNDLED_DIR, 'llm', `${name}.liquid`);
}

/** The prompt, or the template's problem (an override a person broke: unreadable, bad syntax, unknown variable). */
export function renderPrompt(file: string, vars: object): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: engine.parseAndRenderSync(readFileSync(file, 'utf8'), vars as Record<string, unknown>) as string };
  } catch (err) {
    return { ok: false, reason: `template_error: ${file}: ${(err as Error).message.split('\n')[0]}` };
  }
}
