// One agent tool as data — name, schema, annotations, whether it needs the write path, and its handler — so each tool
// family lives in its own file and the gateway (gateway.ts) only builds the table and serves it over MCP and HTTP.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { CallContext, ToolOutcome, WriteBackend } from './types.js';

export const TOOL_NAMES = [
  'vault_read',
  'vault_write',
  'vault_list',
  'vault_link',
  'vault_undo_last',
  'memory_search',
  'memory_remember',
  'memory_forget',
  'memory_add_fact',
  'memory_invalidate_fact',
  'memory_delete_fact',
  'memory_facts',
  'memory_timeline',
  'memory_context',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolDef<S extends z.ZodTypeAny> {
  name: ToolName;
  title: string;
  description: string;
  schema: S;
  annotations: ToolAnnotations;
  /** Needs the write path: not offered while it is unavailable. */
  writes: boolean;
  run(args: z.infer<S>, ctx: CallContext, w: WriteBackend | null): Promise<ToolOutcome>;
}

export const def = <S extends z.ZodTypeAny>(d: ToolDef<S>): ToolDef<S> => d;
