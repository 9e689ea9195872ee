// What a principal may do: one pure function over (scope, folders, action), asked by the gateway before any work —
// the same for MCP and HTTP — and by tools/list to leave out what the caller may not call.
import type { ToolName } from '../tools/tool-def.js';
import type { Scope } from './store.js';

export const RANK: Record<Scope, number> = { read: 0, write: 1, admin: 2 };

/** The scope each tool needs. A Record: a new tool that is not placed here fails to compile. */
export const TOOL_SCOPE: Record<ToolName, Scope> = {
  vault_read: 'read',
  vault_list: 'read',
  vault_link: 'read',
  memory_search: 'read',
  vault_write: 'write',
  memory_remember: 'write',
  memory_forget: 'write', // its own facts and episodes only, unless admin (checked against the record, memory-tools)
  vault_undo_last: 'write', // only_mine: false (anyone's change) needs admin
  memory_facts: 'read',
  memory_timeline: 'read',
  memory_context: 'read',
  // they edit the subject's note wherever it is: a credential limited to --folders may not call them (guard.ts)
  memory_add_fact: 'write',
  memory_invalidate_fact: 'write',
  memory_delete_fact: 'write',
};

/** Tools that edit a note found only when the call runs (the subject's): for unlimited write grants and admin. */
export const ANYWHERE_WRITES: ReadonlySet<ToolName> = new Set(['memory_add_fact', 'memory_invalidate_fact', 'memory_delete_fact']);

/** The plain HTTP routes besides the tools, by the scope they need. */
export const ROUTE_SCOPE = {
  status: 'read',
  search: 'read',
  tools_list: 'read',
  mcp: 'read', // each tools/call inside is checked as a tool
  episodes_append: 'write',
  episodes_close: 'write',
  prune: 'admin',
  jobs: 'admin',
  reindex: 'admin',
  reconcile: 'admin',
  dream_status: 'read',
  consolidate: 'admin',
  dream_undo: 'admin',
} as const satisfies Record<string, Scope>;
export type RouteName = keyof typeof ROUTE_SCOPE;

export type Action =
  | {
      kind: 'tool';
      tool: ToolName;
      /** The vault path the call would write (vault_write: the note; memory_remember: the day log), NFC, checked. */
      writes?: string;
      /** It acts on other agents' work (vault_undo_last with only_mine: false). */
      others?: boolean;
    }
  | { kind: 'route'; route: RouteName };

export interface Grant {
  scope: Scope;
  folders: readonly string[] | null;
}

export type Decision = { ok: true } | { ok: false; reason: 'forbidden'; message: string };

const forbidden = (message: string): Decision => ({ ok: false, reason: 'forbidden', message });

/** Is `rel` (a vault-relative path) inside one of the folder prefixes? Whole segments only: `Inbox` ≠ `Inboxes`. */
export function insideFolders(rel: string, folders: readonly string[]): boolean {
  return folders.some((f) => {
    const prefix = f.replace(/\/+$/, '');
    return prefix === '' || rel === prefix || rel.startsWith(`${prefix}/`);
  });
}

export function authorize(g: Grant, a: Action): Decision {
  const need: Scope = a.kind === 'route' ? ROUTE_SCOPE[a.route] : a.others ? 'admin' : TOOL_SCOPE[a.tool];
  const what = a.kind === 'route' ? `this route (${a.route})` : a.others ? `${a.tool} on other agents' work` : a.tool;
  if (RANK[g.scope] < RANK[need]) return forbidden(`${what} needs the ${need} scope; this credential has ${g.scope}`);
  if (a.kind === 'tool' && a.writes !== undefined && g.folders !== null && g.scope !== 'admin' && !insideFolders(a.writes, g.folders))
    return forbidden(
      `${a.writes} is outside the folders this credential may write (${g.folders.join(', ') || 'none'}); nothing was written`,
    );
  return { ok: true };
}

/** May the grant call the tool at all (with some arguments)? What tools/list shows. */
export function mayCall(g: Grant, tool: ToolName): boolean {
  return RANK[g.scope] >= RANK[TOOL_SCOPE[tool]];
}
