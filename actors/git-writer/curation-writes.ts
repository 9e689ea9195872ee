// The curation run's one write (actors/knowledge/curation-run.ts): USER.md rewritten and one line appended to
// USER.md.audit.jsonl beside it, committed together. Both sit at the vault root, where agents' vault_write is refused
// (root notes are not writable, a .jsonl is not markdown); they are reserved here so only this privileged write reaches them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VaultOp } from '../../messages/vault-ops.js';

export const USER_MD = 'USER.md';
export const USER_MD_AUDIT = 'USER.md.audit.jsonl';
/** The agent the curation run's commits are made as. */
export const CURATION_AGENT = 'memvault-curation';

/** USER.md or its audit file (compared lower-cased: on a case-insensitive disk `user.md` is the same file). */
export function isCurationFile(rel: string): boolean {
  const l = rel.normalize('NFC').toLowerCase();
  return l === USER_MD.toLowerCase() || l === USER_MD_AUDIT.toLowerCase();
}

/** The writes of one curation run: USER.md first (a conflict then stops the run before the audit file changes), the audit line second. */
export async function planCuration(
  vault: string,
  msg: { userMd: string | null; expectedHash?: string; auditLine: string | null },
): Promise<VaultOp[]> {
  const ops: VaultOp[] = [];
  if (msg.userMd !== null)
    ops.push({ op: 'write', path: USER_MD, content: msg.userMd, ...(msg.expectedHash ? { expectedHash: msg.expectedHash } : {}) });
  if (msg.auditLine !== null) {
    let text = '';
    try {
      text = await readFile(path.join(vault, USER_MD_AUDIT), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    ops.push({ op: 'write', path: USER_MD_AUDIT, content: `${base}${msg.auditLine.replace(/[\r\n]+/g, ' ')}\n` });
  }
  return ops;
}
