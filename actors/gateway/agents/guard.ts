// The grant check for one tool call, its arguments already parsed: what the call would write (the note's checked path,
// the fact log) and whether it reaches other agents' work, put to scopes.ts's authorize before the tool runs.
import type { ToolDeps } from '../tools/deps.js';
import { checkVaultPath } from '../tools/read-path.js';
import type { ToolName } from '../tools/tool-def.js';
import { toolFail, type ToolError } from '../tools/types.js';
import { ANYWHERE_WRITES, authorize } from './scopes.js';
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
  if (ANYWHERE_WRITES.has(tool) && p.folders !== null && p.scope !== 'admin')
    return toolFail(
      'forbidden',
      `${tool} edits the subject's note wherever it is; this credential may write only in ${p.folders.join(', ') || 'no folder'} (grant it without --folders); nothing was written`,
    );
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

/** Facts an agent may forget: its own, unless it is admin (or the owner); episodes are checked by the memory actor. */
export function ownsWork(p: Principal | undefined, recordedBy: string | null | undefined): boolean {
  if (!p || p.kind === 'owner' || p.scope === 'admin') return true;
  if (!recordedBy) return false;
  return recordedBy === p.name || recordedBy.startsWith(`${p.name} · `);
}

/**
 * The `who` a fact's log header records: the recorder's name first (an agent's own, else the owner's
 * `X-Memvault-Agent` or `agent`), then the session, so a session id never reads as the name of an agent.
 */
export function factWho(p: Principal | undefined, agent: string, sessionId: string | undefined): string {
  const name = p?.kind === 'agent' ? p.name : agent;
  return sessionId ? `${name} · ${sessionId}` : name;
}
