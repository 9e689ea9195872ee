// The grant check for one tool call, its arguments already parsed: what the call would write (the note's checked path,
// the fact log) and whether it reaches other agents' work, put to scopes.ts's authorize before the tool runs.
import type { ToolDeps } from '../tools/deps.js';
import { checkVaultPath } from '../tools/read-path.js';
import type { ToolName } from '../tools/tool-def.js';
import { toolFail, type ToolError } from '../tools/types.js';
import { authorize } from './scopes.js';
import type { Principal } from './store.js';

/** Null when the call may go ahead; else the `forbidden` refusal to answer with. */
export function checkGrant(
  p: Principal,
  tool: ToolName,
  args: Record<string, unknown>,
  d: Pick<ToolDeps, 'reserved' | 'factLog'>,
): { ok: false; error: ToolError } | null {
  const bare = authorize(p, { kind: 'tool', tool, others: tool === 'vault_undo_last' && args['only_mine'] === false });
  if (!bare.ok) return toolFail('forbidden', bare.message);
  let writes: string | undefined;
  if (tool === 'vault_write' && typeof args['path'] === 'string') {
    const checked = checkVaultPath(args['path'], 'note', d.reserved);
    // a path the write rules refuse is refused by the tool itself, with its own reason, before the disk changes
    if (!checked.ok) return null;
    writes = checked.result.rel;
  } else if (tool === 'memory_remember') writes = `${d.factLog ?? 'Memory/Log'}/`;
  if (writes === undefined) return null;
  const r = authorize(p, { kind: 'tool', tool, writes });
  return r.ok ? null : toolFail('forbidden', r.message);
}

/** Facts and episodes an agent may forget: its own, unless it is admin (or the owner). */
export function ownsWork(p: Principal | undefined, recordedBy: string | null | undefined): boolean {
  if (!p || p.kind === 'owner' || p.scope === 'admin') return true;
  if (!recordedBy) return false;
  return recordedBy === p.name || recordedBy.startsWith(`${p.name} · `);
}
