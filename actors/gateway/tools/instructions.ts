// The MCP server's instructions to agents (shown at initialize), rendered from prompts/mcp-instructions.liquid with
// this vault's settings. Strict variables and filters: a template naming something missing fails at start.
import { readFileSync } from 'node:fs';
import { Liquid } from 'liquidjs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../supervisors/runtime/code-files.js';

const TEMPLATE = path.join(PACKAGE_ROOT, 'prompts', 'mcp-instructions.liquid');

export interface InstructionVars {
  /** Top-level folders agents may write (writes.allowlist), or none when writes are off. */
  writable: readonly string[];
}

export function mcpInstructions(vars: InstructionVars): string {
  const engine = new Liquid({ strictVariables: true, strictFilters: true });
  return engine.parseAndRenderSync(readFileSync(TEMPLATE, 'utf8'), vars).trimEnd();
}
